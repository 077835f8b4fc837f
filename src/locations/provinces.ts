import { placeKey } from "../reference/place-key.ts";

export interface Province {
  code: string;
  name: string;
  frenchName?: string;
}

/** Provinces and territories; their order is their location id (1–13) in the seed. Never reorder. */
export const PROVINCES: readonly Province[] = [
  { code: "AB", name: "Alberta" },
  { code: "BC", name: "British Columbia", frenchName: "Colombie-Britannique" },
  { code: "MB", name: "Manitoba" },
  { code: "NB", name: "New Brunswick", frenchName: "Nouveau-Brunswick" },
  { code: "NL", name: "Newfoundland and Labrador", frenchName: "Terre-Neuve-et-Labrador" },
  { code: "NS", name: "Nova Scotia", frenchName: "Nouvelle-Écosse" },
  { code: "NT", name: "Northwest Territories", frenchName: "Territoires du Nord-Ouest" },
  { code: "NU", name: "Nunavut" },
  { code: "ON", name: "Ontario" },
  { code: "PE", name: "Prince Edward Island", frenchName: "Île-du-Prince-Édouard" },
  { code: "QC", name: "Quebec", frenchName: "Québec" },
  { code: "SK", name: "Saskatchewan" },
  { code: "YT", name: "Yukon" },
];

const byKey = new Map<string, string>();
for (const province of PROVINCES) {
  for (const label of [province.code, province.name, province.frenchName]) {
    if (label) byKey.set(placeKey(label), province.code);
  }
}

/** "bc", "British Columbia", "colombie-britannique" → "BC"; anything else → undefined. */
export function provinceCode(text: string): string | undefined {
  return byKey.get(placeKey(text));
}

const provinceOfDescription = (description: string) => /,\s*([A-Z]{2})$/.exec(description)?.[1] ?? null;
const provinceCodeOfProvince = (name: string) => PROVINCES.find((p) => p.name === name || p.frenchName === name)?.code ?? null;

/** The province of a job's place: the province itself, or the code its description ends with ("Smallville, SK"). */
export function provinceCodeOf(location: { type: string; name: string; description: string }): string | null {
  return location.type === "Province" ? provinceCodeOfProvince(location.name) : provinceOfDescription(location.description);
}
