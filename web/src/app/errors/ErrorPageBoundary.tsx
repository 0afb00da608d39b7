import { Component, type ErrorInfo, type ReactNode } from 'react';
import i18n from '../../lib/i18n';

interface State {
  failed: boolean;
}

/**
 * Wraps the error page itself. If showing the error fails too, only plain markup and a link home
 * are left: no hooks, no router, nothing that could fail a third time.
 */
export class ErrorPageBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('The error page failed', error, info.componentStack);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    let message = 'We could not show the error page either.';
    let home = 'Go to the home page';
    try {
      message = i18n.t('error.secondary');
      home = i18n.t('error.backHome');
    } catch {
      // Keep the English words.
    }
    return (
      <div role="alert" className="error-fallback">
        <p>{message}</p>
        <p>
          <a href="/">{home}</a>
        </p>
      </div>
    );
  }
}
