/**
 * The folders uploads are received in are named for their process, and a starting API removes
 * those of processes that are gone (a server killed mid-upload) and never those of a live one;
 * folders named the old way (no pid) go once older than a day. SQLite only: no database is read.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect } from 'chai';
import { makeReceivingFolder } from '../../plugin/upload/receiving-folder.js';
import { uploadApi } from './support/upload-api.js';

describe('uploads: receiving folders left behind', function () {
  this.timeout(30_000);
  const made: string[] = [];
  after(() => made.forEach((path) => rmSync(path, { recursive: true, force: true })));

  function folder(name: string, ageMs = 0): string {
    const path = join(tmpdir(), name);
    mkdirSync(path);
    writeFileSync(join(path, 'part-0'), 'half an upload');
    if (ageMs) utimesSync(path, new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
    made.push(path);
    return path;
  }

  it('names a receiving folder for its process', async () => {
    const path = await makeReceivingFolder();
    made.push(path);
    expect(basename(path)).to.match(new RegExp(`^content-api-upload-${process.pid}-[A-Za-z0-9]{6}$`));
  });

  it("removes at start the folders of processes that are gone, and keeps a live process's", async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const ofGone = folder(`content-api-upload-${gone}-AbC123`);
      const ofRunning = folder(`content-api-upload-${running.pid}-dEf456`);
      const ofThis = folder(`content-api-upload-${process.pid}-GhI789`);
      const oldLegacy = folder('content-api-upload-Old123', 2 * 24 * 3_600_000);
      const newLegacy = folder('content-api-upload-New123', 3_600_000);
      const api = await uploadApi('sqlite');
      try {
        expect(existsSync(ofGone), 'a gone process').to.equal(false);
        expect(existsSync(oldLegacy), 'an old folder without pid').to.equal(false);
        expect(existsSync(ofRunning), 'another live process').to.equal(true);
        expect(existsSync(ofThis), 'this process').to.equal(true);
        expect(existsSync(newLegacy), 'a recent folder without pid').to.equal(true);
        expect(existsSync(api.storage), "the API's own storage").to.equal(true);
      } finally {
        await api.close();
      }
    } finally {
      running.kill();
    }
  });
});
