/**
 * antd-mobile's imperative parts (Toast, Dialog) render outside the React tree; under
 * React 19 they need to be told to use createRoot (antd-mobile "v5 for React 19" guide).
 * Import them from here, never from 'antd-mobile' directly.
 */
import { unstableSetRender } from 'antd-mobile';
import type { Root } from 'react-dom/client';
import { createRoot } from 'react-dom/client';

const roots = new WeakMap<Element | DocumentFragment, Root>();

unstableSetRender((node, container) => {
  let root = roots.get(container);
  if (!root) {
    root = createRoot(container);
    roots.set(container, root);
  }
  root.render(node);
  return async () => {
    await Promise.resolve();
    root.unmount();
    roots.delete(container);
  };
});

export { Dialog, Toast } from 'antd-mobile';
