/**
 * Large bodies are written one slice per event-loop turn for the whole process: the slices of
 * responses in flight take turns (and, between two turns, the event loop polls for I/O).
 */
import { expect } from 'chai';
import { onItsTurn } from '../../plugin/http/paced-body.js';

describe('paced bodies: one slice per turn', () => {
  it('runs one queued write per event-loop turn, in the order they were queued', async () => {
    const written: string[] = [];
    for (const name of ['a1', 'b1', 'c1']) onItsTurn(() => written.push(name));
    expect(written).to.deep.equal([]);
    const turns: string[][] = [];
    for (let turn = 0; turn < 4; turn += 1) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turns.push([...written]);
    }
    expect(turns).to.deep.equal([['a1'], ['a1', 'b1'], ['a1', 'b1', 'c1'], ['a1', 'b1', 'c1']]);
  });
});
