/** Formatting for the whole repo (checked in npm test by `prettier --check`). */
export default {
  printWidth: 160,
  singleQuote: true,
  trailingComma: 'all',
};
