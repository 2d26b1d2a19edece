import { describe, expect, it } from 'vitest';
import { accessForRequest, describeAction } from './dashboard-actions';

describe('accessForRequest', () => {
  it('lets anyone reach sign-in, the session API and the liveness probe', () => {
    for (const [method, path] of [
      ['GET', '/sign-in'],
      ['POST', '/api/v1/session'],
      ['DELETE', '/api/v1/session'],
      ['GET', '/api/healthz'],
    ]) {
      expect(accessForRequest(method!, path!)).toEqual({ kind: 'public' });
    }
  });

  it('names the action of each write', () => {
    const action = (m: string, p: string) => {
      const a = accessForRequest(m, p);
      return a.kind === 'action' ? a.action : a.kind;
    };
    expect(action('POST', '/api/v1/role-builder/approvals')).toBe('create approvals');
    expect(action('GET', '/api/v1/role-builder/approvals')).toBe('get reports');
    expect(action('POST', '/api/v1/simulate')).toBe('create simulations');
    expect(action('POST', '/api/v1/role-builder/build')).toBe('create simulations');
    expect(action('POST', '/api/v1/snapshots')).toBe('create snapshots');
    expect(action('GET', '/api/v1/snapshots')).toBe('get snapshots');
    expect(action('GET', '/api/v1/snapshots/abc/bundle')).toBe('get snapshots');
    expect(action('GET', '/snapshots')).toBe('get snapshots');
    // The current report as a document is the report, not a kept snapshot.
    expect(action('GET', '/api/v1/snapshots/current/markdown')).toBe('get reports');
    expect(action('POST', '/api/v1/sources/upload')).toBe('create sources');
    expect(action('DELETE', '/api/v1/sources/audit')).toBe('create sources');
    expect(action('GET', '/nodes')).toBe('get reports');
    expect(action('GET', '/api/v1/report/')).toBe('get reports');
  });

  it('refuses a write it does not know, so a new write route is closed until it is named', () => {
    expect(accessForRequest('POST', '/api/v1/new-thing')).toMatchObject({ kind: 'refused' });
    expect(accessForRequest('PUT', '/api/v1/simulate')).toMatchObject({ kind: 'refused' });
    expect(accessForRequest('POST', '/findings')).toMatchObject({ kind: 'refused' });
  });

  it('does not let a look-alike path borrow a public one', () => {
    expect(accessForRequest('GET', '/sign-in/../findings')).toEqual({ kind: 'action', action: 'get reports' });
    expect(accessForRequest('POST', '/api/v1/sessions')).toMatchObject({ kind: 'refused' });
  });

  it('describes an action as RBAC names it', () => {
    expect(describeAction('create approvals')).toBe('create approvals.dra-posture.io');
  });
});
