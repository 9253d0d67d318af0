/** A record batch as a query yields it: its row count and its columns by name. */
interface ColumnBatch {
  numRows: number;
  getChild(name: string): { get(index: number): unknown } | null;
}

/**
 * Each row of a query's result as the string values of `columns` (the query selects them), batch by batch, without a row object per row
 * (LanceDB's toArray() makes an Arrow row proxy for each): a read through every document of a KB, or every chunk,
 * holds one batch and what `visit` keeps. `values` is the same array for every row, overwritten: copy what is kept.
 * A batch missing one of the columns is skipped.
 */
export async function eachRow<const C extends readonly string[]>(
  query: { select(columns: string[]): AsyncIterable<ColumnBatch> },
  columns: C,
  visit: (values: { readonly [K in keyof C]: string }) => void,
): Promise<void> {
  const values = new Array<string>(columns.length).fill('');
  for await (const batch of query.select([...columns])) {
    const vectors = columns.map((c) => batch.getChild(c));
    if (vectors.some((v) => !v)) continue;
    for (let r = 0; r < batch.numRows; r++) {
      for (let c = 0; c < vectors.length; c++) values[c] = String(vectors[c]!.get(r));
      visit(values as unknown as { readonly [K in keyof C]: string });
    }
  }
}
