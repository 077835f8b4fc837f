// DESIGN 18: every label, message, date and amount of the pages, in English and in French. Job
// content is shown as the employer wrote it; reference names (categories, position types) are
// translated here by id.

export type Lang = "en" | "fr";
export const LANGS: readonly Lang[] = ["en", "fr"];

const CATEGORIES_FR: Readonly<Record<number, string>> = {
  1: "Comptabilité", 2: "Administration", 3: "Agriculture", 4: "Arts et divertissement", 5: "Automobile",
  6: "Banque et finance", 7: "Construction", 8: "Service à la clientèle", 9: "Éducation", 10: "Ingénierie",
  11: "Gouvernement", 12: "Santé", 13: "Hôtellerie et tourisme", 14: "Ressources humaines", 15: "Technologies de l'information",
  16: "Assurance", 17: "Juridique", 18: "Logistique et transport", 19: "Fabrication", 20: "Marketing",
  21: "Médias et communications", 22: "Organismes sans but lucratif", 23: "Immobilier", 24: "Commerce de détail", 25: "Ventes",
  26: "Sciences et recherche", 27: "Métiers spécialisés", 28: "Services sociaux", 29: "Télécommunications", 30: "Autre",
};
const POSITION_TYPES_FR: Readonly<Record<number, string>> = { 1: "Temps plein", 2: "Temps partiel", 3: "Contrat", 4: "Temporaire", 5: "Bénévole" };
const UNITS = {
  en: { 1: "a year", 2: "a month", 3: "a week", 4: "a day", 5: "an hour" },
  fr: { 1: "par année", 2: "par mois", 3: "par semaine", 4: "par jour", 5: "de l'heure" },
} as const;

export const WORDS = {
  en: {
    site: "Job board",
    otherLanguage: "Français",
    confidential: "Confidential employer",
    places: "Location",
    salary: "Salary",
    plusCommission: "plus commission",
    positionType: "Position type",
    categories: "Category",
    published: "Published",
    closes: "Apply by",
    aboutJob: "About the job",
    aiUsed: "Artificial intelligence is used to screen, assess or select applicants.",
    aiNotUsed: "Artificial intelligence is not used to screen, assess or select applicants.",
    vacancy: "This posting is for an existing vacancy.",
    noVacancy: "This posting is not for an existing vacancy.",
    applyOnSite: "Apply on the employer's site",
    applyHere: "Apply",
    goneTitle: "This job is no longer open",
    gone: "The employer has closed this posting. Search the board for other jobs.",
    notFoundTitle: "Page not found",
    notFound: "There is no job at this address. Search the board for jobs.",
    search: "Search jobs",
    fraudPolicy: "Fraudulent postings",
    searchTitle: "Find a job in Canada",
    searchDescription: "Search Canadian job postings by keyword, place and distance, province, category, position type and salary.",
    keywords: "Keywords",
    place: "City or town",
    placeHint: "For example Vancouver, or Vancouver, BC",
    radius: "Within (km)",
    province: "Province or territory",
    anyProvince: "Any province",
    anyCategory: "Any category",
    anyType: "Any position type",
    salaryMin: "Minimum salary per year (CAD)",
    submit: "Search",
    moreFilters: "More filters",
    filtersSet: (count: number) => (count === 1 ? "1 set" : `${count} set`),
    applyFilters: "Search with these filters",
    results: "Jobs",
    none: "No job matches your search.",
    more: "More jobs",
    unknownPlace: "We do not know this place. Try a city or town, such as Vancouver or Vancouver, BC.",
    noPoint: "This place has no coordinates to measure a distance from; choose its province instead.",
    badRadius: "Enter a distance from 1 to 500 km.",
    badSalary: "Enter a yearly amount in dollars, such as 60000.",
    km: "km",
    applyTitle: "Apply for this job",
    name: "Your name",
    email: "Email",
    phone: "Phone (optional)",
    coverLetter: "Cover letter (optional)",
    resume: "Résumé (optional): PDF, Word (.docx) or text, at most 5 MB",
    required: "required",
    yes: "Yes",
    no: "No",
    send: "Send my application",
    formErrors: "Your application was not sent. Correct the fields marked below.",
    sentTitle: "Application sent",
    sent: "Your application was sent to the employer. You will receive a confirmation by email, with a link to withdraw it if you change your mind.",
    back: "Back to the job",
    report: "Report this job",
    reportTitle: "Report a job posting",
    reportIntro: "Tell us what is wrong with this posting. We review every report, and remove postings that break our policy on fraudulent postings.",
    reason: "Reason",
    chooseReason: "Choose a reason",
    reasons: { fraud: "Fraud or scam", discrimination: "Discrimination", misleading: "Misleading pay or conditions", notAJob: "Not a real job", other: "Something else" },
    details: "Details (optional)",
    yourEmail: "Your email, if you want an answer (optional)",
    sendReport: "Send the report",
    reportSent: "Thank you: your report was received.",
    reportErrors: "Your report was not sent. Correct the fields marked below.",
    fraudTitle: "Our policy on fraudulent job postings",
  },
  fr: {
    site: "Site d'emploi",
    otherLanguage: "English",
    confidential: "Employeur confidentiel",
    places: "Lieu",
    salary: "Salaire",
    plusCommission: "plus commission",
    positionType: "Type de poste",
    categories: "Catégorie",
    published: "Publié le",
    closes: "Postuler d'ici le",
    aboutJob: "À propos du poste",
    aiUsed: "L'intelligence artificielle est utilisée pour présélectionner, évaluer ou choisir les candidats.",
    aiNotUsed: "L'intelligence artificielle n'est pas utilisée pour présélectionner, évaluer ou choisir les candidats.",
    vacancy: "Cette offre vise un poste vacant existant.",
    noVacancy: "Cette offre ne vise pas un poste vacant existant.",
    applyOnSite: "Postuler sur le site de l'employeur",
    applyHere: "Postuler",
    goneTitle: "Cette offre n'est plus ouverte",
    gone: "L'employeur a fermé cette offre. Cherchez d'autres emplois sur le site.",
    notFoundTitle: "Page introuvable",
    notFound: "Aucun emploi à cette adresse. Cherchez des emplois sur le site.",
    search: "Chercher des emplois",
    fraudPolicy: "Offres frauduleuses",
    searchTitle: "Trouver un emploi au Canada",
    searchDescription: "Cherchez des offres d'emploi au Canada par mot-clé, lieu et distance, province, catégorie, type de poste et salaire.",
    keywords: "Mots-clés",
    place: "Ville ou village",
    placeHint: "Par exemple Montréal, ou Montréal, QC",
    radius: "Dans un rayon de (km)",
    province: "Province ou territoire",
    anyProvince: "Toutes les provinces",
    anyCategory: "Toutes les catégories",
    anyType: "Tous les types de poste",
    salaryMin: "Salaire minimum par année (CAD)",
    submit: "Chercher",
    moreFilters: "Plus de filtres",
    filtersSet: (count: number) => (count === 1 ? "1 choisi" : `${count} choisis`),
    applyFilters: "Chercher avec ces filtres",
    results: "Emplois",
    none: "Aucun emploi ne correspond à votre recherche.",
    more: "Plus d'emplois",
    unknownPlace: "Nous ne connaissons pas ce lieu. Essayez une ville ou un village, comme Montréal ou Montréal, QC.",
    noPoint: "Ce lieu n'a pas de coordonnées pour mesurer une distance; choisissez plutôt sa province.",
    badRadius: "Entrez une distance de 1 à 500 km.",
    badSalary: "Entrez un montant annuel en dollars, comme 60000.",
    km: "km",
    applyTitle: "Postuler à cet emploi",
    name: "Votre nom",
    email: "Courriel",
    phone: "Téléphone (facultatif)",
    coverLetter: "Lettre de présentation (facultatif)",
    resume: "CV (facultatif) : PDF, Word (.docx) ou texte, 5 Mo au plus",
    required: "obligatoire",
    yes: "Oui",
    no: "Non",
    send: "Envoyer ma candidature",
    formErrors: "Votre candidature n'a pas été envoyée. Corrigez les champs indiqués ci-dessous.",
    sentTitle: "Candidature envoyée",
    sent: "Votre candidature a été envoyée à l'employeur. Vous recevrez une confirmation par courriel, avec un lien pour la retirer si vous changez d'idée.",
    back: "Retour à l'offre",
    report: "Signaler cette offre",
    reportTitle: "Signaler une offre d'emploi",
    reportIntro: "Dites-nous ce qui ne va pas dans cette offre. Nous examinons chaque signalement et retirons les offres qui enfreignent notre politique sur les offres frauduleuses.",
    reason: "Motif",
    chooseReason: "Choisissez un motif",
    reasons: { fraud: "Fraude ou arnaque", discrimination: "Discrimination", misleading: "Salaire ou conditions trompeurs", notAJob: "Pas un véritable emploi", other: "Autre chose" },
    details: "Détails (facultatif)",
    yourEmail: "Votre courriel, si vous souhaitez une réponse (facultatif)",
    sendReport: "Envoyer le signalement",
    reportSent: "Merci : votre signalement a été reçu.",
    reportErrors: "Votre signalement n'a pas été envoyé. Corrigez les champs indiqués ci-dessous.",
    fraudTitle: "Notre politique sur les offres d'emploi frauduleuses",
  },
} as const;

const LOCALE: Record<Lang, string> = { en: "en-CA", fr: "fr-CA" };

// Made once per isolate: building a formatter costs far more than using one.
const DATES = { en: new Intl.DateTimeFormat(LOCALE.en, { dateStyle: "long", timeZone: "UTC" }), fr: new Intl.DateTimeFormat(LOCALE.fr, { dateStyle: "long", timeZone: "UTC" }) };
const MONEY = { en: new Intl.NumberFormat(LOCALE.en, { style: "currency", currency: "CAD" }), fr: new Intl.NumberFormat(LOCALE.fr, { style: "currency", currency: "CAD" }) };

/** `November 23, 2026` / `23 novembre 2026`, in UTC as the API's dates are. */
export function formatDate(lang: Lang, iso: string): string {
  return DATES[lang].format(new Date(iso));
}

/** `$65,000.00` / `65 000,00 $`. */
export function formatMoney(lang: Lang, amount: number): string {
  return MONEY[lang].format(amount);
}

/** A salary as a range with its unit: `$60,000.00 – $70,000.00 a year`. */
export function formatSalary(lang: Lang, salary: { amount: number; maxAmount: number | null; type: { id: number }; plusCommission: boolean }): string {
  const amount = (value: number) => formatMoney(lang, Number(JSON.stringify(value)));
  const range = salary.maxAmount === null ? amount(salary.amount) : `${amount(salary.amount)} – ${amount(salary.maxAmount)}`;
  const unit = UNITS[lang][salary.type.id as keyof (typeof UNITS)["en"]] ?? "";
  return `${range} ${unit}${salary.plusCommission ? `, ${WORDS[lang].plusCommission}` : ""}`.trim();
}

export const categoryName = (lang: Lang, category: { id: number; name: string }) => (lang === "fr" ? (CATEGORIES_FR[category.id] ?? category.name) : category.name);
export const positionTypeName = (lang: Lang, type: { id: number; name: string }) => (lang === "fr" ? (POSITION_TYPES_FR[type.id] ?? type.name) : type.name);
