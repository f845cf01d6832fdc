import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import { describe, expect, it } from 'vitest';
import { PolarisProvider } from '../../admin/src/shell/polaris-provider';
import { createAppRouter } from '../../admin/src/router';
import { store } from '../../admin/src/state/atoms';

function renderAt(path: string) {
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [path] }) });
  render(
    <Provider store={store}>
      <PolarisProvider>
        <RouterProvider router={router} />
      </PolarisProvider>
    </Provider>,
  );
  return router;
}

describe('route table', () => {
  it('an unknown path shows the 404 screen', async () => {
    const router = renderAt('/definitely/not/a/route');
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
    expect(await screen.findByText("The page you're looking for couldn't be found")).toBeTruthy();
  });

  it.each(['/', '/admin', '/admin/index'])('%s redirects to /main', async (path) => {
    const router = renderAt(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/main'));
  });

  it('the error page shows the documented text', async () => {
    renderAt('/error');
    expect(
      await screen.findByText(
        /Sorry, Internal Server Error\. Please try navigating to the page from the product home and try again\./,
      ),
    ).toBeTruthy();
  });
});
