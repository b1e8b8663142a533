/** The PostgreSQL driver under DBOS warns about its own query pattern on stderr; a command's output stays its own. */
export function quietDriver(): void {
  process.noDeprecation = true;
}
