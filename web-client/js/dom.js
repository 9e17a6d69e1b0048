/*
 * dom — the few DOM helpers the views share: h() builds an element from a tag, attributes and
 * children; field() and checkbox() a labelled form control with its help; replace() swaps a container's content while keeping keyboard focus on the element
 * with the same data-focus key (or, if that one is gone or disabled, the first control left in
 * the container), so a re-render after a server event does not lose the player's place when
 * they play with the keyboard.
 */

/* h('button', {class: 'x', onclick: fn, 'aria-label': '…', dataset: {face: '1-2'}}, 'text', child…) */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'value') el.value = value;
    else if (key === 'checked') el.checked = Boolean(value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/* A labelled control with an optional line of help under it (the control names it in aria-describedby). */
export function field(id, label, control, help) {
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    control,
    help ? h('p', { class: 'help', id: `${id}-help` }, help) : null);
}

export function checkbox(id, label, checked, help) {
  return h('div', { class: 'field field-check' },
    h('input', { type: 'checkbox', id, checked, 'aria-describedby': help ? `${id}-help` : null }),
    h('label', { for: id }, label),
    help ? h('p', { class: 'help', id: `${id}-help` }, help) : null);
}

/* Replaces the container's children, keeping focus on the same logical control if it had it. */
export function replace(container, ...children) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.focus : null;
  container.replaceChildren();
  append(container, children);
  if (key) {
    /* the same control if it can still take focus, else the first one nearby that can */
    const again = container.querySelector(`[data-focus="${CSS.escape(key)}"]:not(:disabled)`);
    const nearby = again || container.querySelector('button:not(:disabled), input:not(:disabled), [tabindex="0"]');
    if (nearby) nearby.focus();
  }
}
