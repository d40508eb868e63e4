/**
 * The service's HTML pages: sign-in, consent, account, errors, and the test redirect target. Plain
 * server-rendered forms; they work without JavaScript (the pages send none).
 */

export function esc(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · protocols</title>
<style>
body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222;line-height:1.45}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem}input[type=text],input[type=password]{width:100%;padding:.4rem;box-sizing:border-box}
button{margin:.8rem .5rem 0 0;padding:.45rem 1rem}.error{color:#a00;border-left:3px solid #a00;padding-left:.6rem}
.muted{color:#666;font-size:.9rem}table{border-collapse:collapse;width:100%}td,th{padding:.3rem;border-bottom:1px solid #ddd;text-align:left}
code{word-break:break-all}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function hidden(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('\n');
}

export function loginPage(p: { action: string; next: string; csrf: string; error?: string; username?: string; clientName?: string }): string {
  const why = p.clientName ? `<p>Sign in to let <strong>${esc(p.clientName)}</strong> use your protocols.</p>` : '';
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
${why}
${p.error ? `<p class="error" role="alert">${esc(p.error)}</p>` : ''}
<form method="post" action="${esc(p.action)}">
${hidden({ csrf_token: p.csrf, next: p.next })}
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username" value="${esc(p.username ?? '')}" required autofocus>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

const SCOPE_TEXT: Record<string, string> = {
  read: 'read your public and private protocols',
  readwrite: 'read your public and private protocols, and create, change and publish protocols as you',
};

export function consentPage(p: {
  action: string;
  csrf: string;
  clientName: string;
  clientId: string;
  username: string;
  scope: string;
  redirectUri: string;
  fields: Record<string, string>;
  logoutAction: string;
}): string {
  return layout(
    'Authorize application',
    `<h1>Authorize ${esc(p.clientName)}?</h1>
<p><strong>${esc(p.clientName)}</strong> <span class="muted">(${esc(p.clientId)})</span> asks to ${esc(SCOPE_TEXT[p.scope] ?? p.scope)}.</p>
<p class="muted">Signed in as ${esc(p.username)}. You will be sent back to ${esc(p.redirectUri)}. You can withdraw this later on your account page.</p>
<form method="post" action="${esc(p.action)}">
${hidden({ ...p.fields, csrf_token: p.csrf })}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<form method="post" action="${esc(p.logoutAction)}">
${hidden({ csrf_token: p.csrf })}
<button type="submit">Not ${esc(p.username)}? Sign out</button>
</form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<h1>${esc(title)}</h1>\n<p class="error" role="alert">${esc(message)}</p>`);
}

export function accountPage(p: {
  username: string;
  name: string;
  csrf: string;
  revokeAction: string;
  logoutAction: string;
  notice?: string;
  authorizations: { clientId: string; clientName: string; scope: string; since: number }[];
}): string {
  const rows = p.authorizations
    .map(
      (a) =>
        `<tr><td>${esc(a.clientName)}<br><span class="muted">${esc(a.clientId)}</span></td><td>${esc(a.scope)}</td><td>${esc(
          new Date(a.since).toISOString().slice(0, 10),
        )}</td><td><form method="post" action="${esc(p.revokeAction)}">${hidden({ csrf_token: p.csrf, client_id: a.clientId })}<button type="submit">Revoke</button></form></td></tr>`,
    )
    .join('\n');
  return layout(
    'Your account',
    `<h1>${esc(p.name)} <span class="muted">(${esc(p.username)})</span></h1>
${p.notice ? `<p role="status">${esc(p.notice)}</p>` : ''}
<h2>Applications you authorized</h2>
${rows ? `<table><thead><tr><th>Application</th><th>Scope</th><th>Since</th><th></th></tr></thead><tbody>\n${rows}\n</tbody></table>` : '<p>None.</p>'}
<form method="post" action="${esc(p.logoutAction)}">
${hidden({ csrf_token: p.csrf })}
<button type="submit">Sign out</button>
</form>`,
  );
}

/** Where the demo application's redirect lands: shows the code and how to exchange it. */
export function callbackPage(p: { query: Record<string, string>; tokenUrl: string }): string {
  const q = p.query;
  if (q.error) {
    return layout('Authorization refused', `<h1>Authorization refused</h1>\n<p class="error">${esc(q.error)}: ${esc(q.error_description ?? '')}</p>\n<p>state: <code>${esc(q.state ?? '')}</code></p>`);
  }
  return layout(
    'Authorization code',
    `<h1>Authorization code</h1>
<p>code: <code id="code">${esc(q.code ?? '')}</code></p>
<p>state: <code id="state">${esc(q.state ?? '')}</code></p>
<p class="muted">Exchange it within ten minutes at <code>${esc(p.tokenUrl)}</code> with grant_type=authorization_code, this code, your client_id and client_secret, and the same redirect_uri.</p>`,
  );
}
