/**
 * RFC 4515 escaping of a value placed inside an LDAP search filter: `*`, `(`, `)`, `\` and NUL
 * become `\2a`, `\28`, `\29`, `\5c`, `\00`, so user input can never add wildcards or clauses.
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\u0000]/g, (character) => `\\${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** The configured filter (`ldap.user_filter`, `ldap.group_filter`) with every `%s` replaced by the escaped value. */
export function fillFilter(template: string, value: string): string {
  const escaped = escapeFilterValue(value);
  return template.split('%s').join(escaped);
}
