import { describe, expect, it } from 'vitest';
import { withAuthenticationGroup } from './user-info';

// The impersonation filter's rule (k8s.io/apiserver pkg/endpoints/filters/impersonation.go):
// system:authenticated joins a non-anonymous user unless it or system:unauthenticated is there;
// system:anonymous gets system:unauthenticated.
describe('withAuthenticationGroup', () => {
  it('adds system:authenticated to a named user, once', () => {
    expect(withAuthenticationGroup('alice', [])).toEqual(['system:authenticated']);
    expect(withAuthenticationGroup('alice', ['devs'])).toEqual(['devs', 'system:authenticated']);
    expect(withAuthenticationGroup('alice', ['system:authenticated', 'devs'])).toEqual(['system:authenticated', 'devs']);
  });

  it('leaves a user asserted as unauthenticated so, and makes the anonymous user unauthenticated', () => {
    expect(withAuthenticationGroup('alice', ['system:unauthenticated'])).toEqual(['system:unauthenticated']);
    expect(withAuthenticationGroup('system:anonymous', [])).toEqual(['system:unauthenticated']);
    expect(withAuthenticationGroup('system:anonymous', ['system:unauthenticated'])).toEqual(['system:unauthenticated']);
  });

  it('does not change the groups it was given', () => {
    const given = ['devs'];
    withAuthenticationGroup('alice', given);
    expect(given).toEqual(['devs']);
  });
});
