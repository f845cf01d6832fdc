// Polaris' own class names for its tabs, used by the shell's tab bar (nav-tabs.tsx);
// tests/config/polaris-trim.test.ts checks that Polaris' stylesheet still styles each of them.
export const TAB_CLASSES = {
  outer: 'Polaris-Tabs__Outer',
  wrapper: 'Polaris-Tabs__Wrapper',
  buttons: 'Polaris-Tabs__ButtonWrapper',
  list: 'Polaris-Tabs',
  item: 'Polaris-Tabs__TabContainer',
  tab: 'Polaris-Tabs__Tab',
  active: 'Polaris-Tabs__Tab--active',
} as const;
