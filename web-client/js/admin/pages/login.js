/*
 * login — the admin login form. The server answers a right password of an account that is no
 * admin with 403: that is said plainly here, with how an operator grants the right, instead of
 * a generic failure. A throttled login says how long to wait.
 */
import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { api, setSession } from '../api.js';
import { errorText, formValues } from '../ui.js';

export function render(ctx) {
  const message = h('p', { id: 'login-error', class: 'adm-error', role: 'alert', hidden: true });
  const expired = ctx.query.get('expired') ? h('p', { class: 'adm-note', id: 'login-expired' }, t('adm.login.expired')) : null;
  const submit = h('button', { type: 'submit', id: 'login-submit' }, t('adm.login.submit'));
  const form = h('form', { id: 'login-form', class: 'adm-login', novalidate: true },
    h('h1', {}, t('adm.login.title')),
    h('p', { class: 'muted' }, t('adm.login.hint')),
    expired,
    h('div', { class: 'field' }, h('label', { for: 'login-name' }, t('adm.login.name')),
      h('input', { id: 'login-name', name: 'name', autocomplete: 'username', required: true, maxlength: 64 })),
    h('div', { class: 'field' }, h('label', { for: 'login-password' }, t('adm.login.password')),
      h('input', { id: 'login-password', name: 'password', type: 'password', autocomplete: 'current-password', required: true, maxlength: 200 })),
    message, submit);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const { name, password } = formValues(form);
    const show = (text) => {
      message.textContent = text;
      message.hidden = false;
    };
    if (!name || !password) {
      show(t('adm.login.blank'));
      return;
    }
    submit.disabled = true;
    try {
      const s = await api('login', { method: 'POST', body: { name, password: form.elements.password.value } });
      setSession({ csrf: s.csrf, account: s.account, player: s.player, expires_at: s.expires_at });
      ctx.go(ctx.afterLogin());
    } catch (e) {
      show(e.status === 403 ? t('adm.login.notAdmin', { name }) : errorText(e));
      submit.disabled = false;
    }
  });
  ctx.main.append(form);
  form.elements.name.focus();
}
