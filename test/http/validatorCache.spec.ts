import { expect } from 'chai';
import { contract } from '../helpers/contract.ts';
import { ajvInstancesMade, compileRequestValidators, compileResponseValidators } from '../../server/platform/http/validation.ts';
import { loadContract } from '../../server/platform/http/contract.ts';

/** Compiling a contract's validators is the costly part of building an app: once per Contract object. */
describe('http: compiled validators are cached per contract', () => {
  it('returns the same validators for the same contract, and compiles another contract on its own', () => {
    expect(compileRequestValidators(contract, true)).to.equal(compileRequestValidators(contract, true));
    expect(compileRequestValidators(contract, false)).not.to.equal(compileRequestValidators(contract, true));
    expect(compileResponseValidators(contract)).to.equal(compileResponseValidators(contract));
    const other = loadContract();
    expect(compileRequestValidators(other, true)).not.to.equal(compileRequestValidators(contract, true));
  });

  it('compiles an operation at its first use only (a start no longer compiles them all), once', () => {
    const fresh = loadContract();
    const requests = compileRequestValidators(fresh, true);
    const responses = compileResponseValidators(fresh);
    expect(requests.compiledCount).to.equal(0);
    expect(responses.compiledCount).to.equal(0);
    // An operation without parameters or body (the readiness probe a start is judged by) needs no Ajv of its own
    // (each instance holds the whole document: S1, issue 37); the first with a body makes the body's instance only.
    const made = ajvInstancesMade();
    const first = requests.get('getReadiness');
    expect(first).to.have.property('parameters');
    expect(ajvInstancesMade(), 'Ajv instances made for getReadiness').to.equal(made);
    expect(first!.parameters({ path: {}, query: {}, headers: {} })).to.deep.equal([]);
    requests.get('recordVisit');
    expect(ajvInstancesMade(), 'for a body without parameters: the body’s instance only').to.equal(made + 1);
    expect(requests.get('getReadiness')).to.equal(first);
    expect(requests.compiledCount).to.equal(2);
    expect(requests.get('noSuchOperation')).to.equal(undefined);
    expect(responses.get('getReadiness')!(200, 'application/json', { status: 'ready' })).to.be.a('string');
    expect(responses.compiledCount).to.equal(1);
  });

  it('compiles every operation of openapi.yaml (what boot used to prove, now proven here)', function () {
    // About 6 s on a quiet 2-core machine; generous for a loaded one.
    this.timeout(300_000);
    const fresh = loadContract();
    for (const allErrors of [true, false]) expect(compileRequestValidators(fresh, allErrors).compileAll().compiledCount).to.equal(fresh.operations.length);
    expect(compileResponseValidators(fresh).compileAll().compiledCount).to.equal(fresh.operations.length);
  });
});
