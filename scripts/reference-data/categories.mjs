// Reference lookup data for the Job Posting API.
//
// IDS ARE STABLE FOREVER: they are stored in the database and used by clients.
// Append new entries at the end with the next id; never renumber, reorder,
// reuse or delete an id.

/** Job categories for a Canadian job board. */
export const JOB_CATEGORIES = [
  { id: 1, name: "Accounting" },
  { id: 2, name: "Administrative" },
  { id: 3, name: "Agriculture" },
  { id: 4, name: "Arts & Entertainment" },
  { id: 5, name: "Automotive" },
  { id: 6, name: "Banking & Finance" },
  { id: 7, name: "Construction" },
  { id: 8, name: "Customer Service" },
  { id: 9, name: "Education" },
  { id: 10, name: "Engineering" },
  { id: 11, name: "Government" },
  { id: 12, name: "Healthcare" },
  { id: 13, name: "Hospitality & Tourism" },
  { id: 14, name: "Human Resources" },
  { id: 15, name: "Information Technology" },
  { id: 16, name: "Insurance" },
  { id: 17, name: "Legal" },
  { id: 18, name: "Logistics & Transportation" },
  { id: 19, name: "Manufacturing" },
  { id: 20, name: "Marketing" },
  { id: 21, name: "Media & Communications" },
  { id: 22, name: "Non-Profit" },
  { id: 23, name: "Real Estate" },
  { id: 24, name: "Retail" },
  { id: 25, name: "Sales" },
  { id: 26, name: "Science & Research" },
  { id: 27, name: "Skilled Trades" },
  { id: 28, name: "Social Services" },
  { id: 29, name: "Telecommunications" },
  { id: 30, name: "Other" },
];

/** Position (employment) types. */
export const POSITION_TYPES = [
  { id: 1, name: "Full Time" },
  { id: 2, name: "Part Time" },
  { id: 3, name: "Contract" },
  { id: 4, name: "Temp" },
  { id: 5, name: "Volunteer" },
];

/** Salary period types; unit is the period the salary amount is expressed per. */
export const SALARY_TYPES = [
  { id: 1, name: "Yearly", unit: "year" },
  { id: 2, name: "Monthly", unit: "month" },
  { id: 3, name: "Weekly", unit: "week" },
  { id: 4, name: "Daily", unit: "day" },
  { id: 5, name: "Hourly", unit: "hour" },
];

/** How applicants are routed: by email address or to an external URL. */
export const APPLICANT_ROUTING_TYPES = [
  { id: 1, name: "Email" },
  { id: 2, name: "URL" },
];
