/** One CSV record (RFC 4180): fields quoted when they hold a comma, quote or line break. */
export function csvRow(values: readonly (string | number | boolean | null | undefined)[]): string {
  return (
    values
      .map((v) => {
        if (v === null || v === undefined) return '';
        const s = String(v);
        return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
      })
      .join(',') + '\r\n'
  );
}
