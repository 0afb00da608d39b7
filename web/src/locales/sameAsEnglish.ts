// Per language, the keys whose text is rightly the same as English (a word the language uses as
// is), each with the reason. Brand names and codes are allowed for all in buyerCatalogues.test.ts.
export const SAME_AS_ENGLISH: Record<string, Record<string, string>> = {
  ar: {},
  bg: {},
  cs: {},
  hu: {},
  pl: {},
  ro: {},
  ru: {},
  sk: {},
};
