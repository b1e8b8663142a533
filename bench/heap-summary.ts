// What the runs in flight hold, by kind of object: self size and count per constructor (or
// V8 type) in a heap snapshot taken at (d)'s gate over the one taken before the runs started
// (`<file>.base`), divided by the runs, largest first. With a second contender's snapshot,
// what the first's runs hold over the second's. For workload (d)'s snapshots
// (HEAP_SNAPSHOT=<file> node --expose-gc --import tsx bench/concurrent.ts <contender> <runs>):
//   node --import tsx bench/heap-summary.ts <june.heapsnapshot> <runs> [<floor.heapsnapshot>] [top]
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

type Totals = Map<string, { bytes: number; count: number }>;

function totals(file: string): Totals {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const out: Totals = new Map();
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const type = types[heap.nodes[i + typeAt!]!]!;
    const name = heap.strings[heap.nodes[i + nameAt!]!]!;
    // strings and code by their type (their names are their contents)
    const key = type === 'object' || type === 'closure' ? `${type} ${name}` : `(${type})`;
    const entry = out.get(key) ?? { bytes: 0, count: 0 };
    entry.bytes += heap.nodes[i + sizeAt!]!;
    entry.count++;
    out.set(key, entry);
  }
  return out;
}

const [file, runsArg = '1000', other, topArg = '40'] = process.argv.slice(2);
if (!file) throw new Error('usage: heap-summary.ts <snapshot> <runs> [<other snapshot>] [top]');
const runs = Number(runsArg);
/** What the runs added: the snapshot at the gate less the one before them. */
function added(snapshot: string): Totals {
  const at = totals(snapshot);
  for (const [key, before] of totals(`${snapshot}.base`)) {
    const entry = at.get(key) ?? { bytes: 0, count: 0 };
    at.set(key, { bytes: entry.bytes - before.bytes, count: entry.count - before.count });
  }
  return at;
}

const mine = added(file);
const theirs = other ? added(other) : new Map<string, { bytes: number; count: number }>();
const rows = [...new Set([...mine.keys(), ...theirs.keys()])].map((key) => {
  const a = mine.get(key) ?? { bytes: 0, count: 0 };
  const b = theirs.get(key) ?? { bytes: 0, count: 0 };
  return { key, bytes: (a.bytes - b.bytes) / runs, count: (a.count - b.count) / runs };
});
rows.sort((x, y) => Math.abs(y.bytes) - Math.abs(x.bytes));
const sum = (t: Totals) => [...t.values()].reduce((n, e) => n + e.bytes, 0);
console.log(
  `bytes per run: ${(sum(mine) / runs).toFixed(0)}${other ? `, over the other's ${((sum(mine) - sum(theirs)) / runs).toFixed(0)}` : ''}`,
);
for (const row of rows.slice(0, Number(topArg)))
  console.log(
    `${row.bytes.toFixed(0).padStart(8)} B ${row.count.toFixed(1).padStart(7)}  ${row.key}`,
  );
