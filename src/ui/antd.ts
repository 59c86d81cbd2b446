/**
 * antd-mobile's imperative parts (Toast, Dialog) render outside the React tree; under
 * React 19 they need to be told to use createRoot (antd-mobile "v5 for React 19" guide).
 * Import them from here, never from 'antd-mobile' directly. Its animations run in
 * JavaScript (react-spring), which the stylesheet's reduced-motion rule cannot reach, so
 * `prefers-reduced-motion` is followed here as well.
 */
import { Popup as AntPopup, reduceMotion, restoreMotion, unstableSetRender } from 'antd-mobile';
import type { PopupProps } from 'antd-mobile';
import { createElement } from 'react';
import type { CSSProperties } from 'react';
import type { Root } from 'react-dom/client';
import { createRoot } from 'react-dom/client';
import './toast.css';

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

const reducedMotion = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;
const followMotionPreference = () => (reducedMotion?.matches ? reduceMotion() : restoreMotion());
followMotionPreference();
reducedMotion?.addEventListener('change', followMotionPreference);

/**
 * Popups open inside a screen (sheets, the gift panel) sit under the call screens (call.css,
 * z-index 40): a call that rings while one is open must be answerable. antd's default layer
 * (1000) would cover them.
 */
const IN_SCREEN_LAYER = { '--adm-popup-z-index': '35', '--adm-mask-z-index': '35' } as CSSProperties;

export function Popup(props: PopupProps) {
  return createElement(AntPopup, { ...props, style: { ...IN_SCREEN_LAYER, ...props.style } });
}

export { Dialog, InfiniteScroll, PullToRefresh, Toast } from 'antd-mobile';
