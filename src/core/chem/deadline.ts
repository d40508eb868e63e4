/** Deadlines of structure searches. */

export class SearchTimeout extends Error {
  override readonly name = 'SearchTimeout';
}

export function checkDeadline(deadline: number): void {
  if (Date.now() > deadline) throw new SearchTimeout('the search ran past its time limit');
}
