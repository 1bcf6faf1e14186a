import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { oldNodeNotice, repositoryEngines } from './node-version.js';

describe('npm start on an older Node', () => {
  it('says once, plainly, that the Node is older than engines asks, and how to get the supported one', () => {
    assert.equal(repositoryEngines(), '>=22.18', 'read from the repository\'s package.json');
    const notice = oldNodeNotice('20.19.2', '>=22.18');
    assert.equal(
      notice,
      'npm start: this is Node v20.19.2, older than package.json asks (engines.node >=22.18); it may work, but only Node 22.18+ is supported and tested: ' +
        'npm install --prefix .ci/node node@22 && export PATH="$PWD/.ci/node/node_modules/.bin:$PATH"',
    );
    assert.ok(!notice!.includes('\n'), 'one line');
    assert.match(oldNodeNotice('v22.17.9', '>=22.18')!, /this is Node v22\.17\.9/);
  });

  it('says nothing on a Node the engines field accepts, or without one', () => {
    assert.equal(oldNodeNotice('22.18.0', '>=22.18'), undefined);
    assert.equal(oldNodeNotice('24.0.1', '>=22.18'), undefined);
    assert.equal(oldNodeNotice('20.0.0', undefined), undefined);
  });
});
