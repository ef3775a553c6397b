import { expect } from 'chai';
import { contract } from '../helpers/contract.ts';
import { compileRequestValidators, compileResponseValidators } from '../../server/platform/http/validation.ts';
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
});
