import * as vscode from 'vscode';
import { Commands } from '../constants';
import type { Connection, ConnectionState } from '../connection/connection';
import { notConnectedWords } from '../connection/connectionState';
import { Disposable } from '../util/disposable';
import type { SignedInUser } from '../connection/signedInUser';

/** Shows where the extension is connected (or that it is not), and opens the connection menu on click. */
export class ConnectionStatusBar extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('agentWorkbench.connection', vscode.StatusBarAlignment.Left, 10));

  constructor(
    private readonly connection: Connection,
    private readonly user: SignedInUser,
  ) {
    super();
    this.item.name = 'Agent Workbench Connection';
    this.item.command = Commands.showConnectionMenu;
    this.register(connection.onDidChange((state) => this.render(state)));
    this.register(user.onDidChange(() => this.render(this.connection.state)));
    this.render(connection.state);
    this.item.show();
  }

  private render(state: ConnectionState): void {
    if (state.kind === 'connected') {
      const { info } = state;
      this.item.text = `${info.isSandbox ? '$(beaker)' : '$(cloud)'} ${info.host}`;
      const md = new vscode.MarkdownString(`**Agent Workbench** — connected${info.isSandbox ? ' to the local sandbox' : ''}\n\n`);
      // The user's name comes from the service: appended as text, never as Markdown.
      if (this.user.label) md.appendMarkdown('Signed in as ').appendText(this.user.label).appendMarkdown('\n\n');
      md.appendMarkdown(`Service: \`${info.baseUrl}\`\n\nOrganization: \`${info.organizationId}\`\n\nClick for connection actions.`);
      this.item.tooltip = md;
      this.item.backgroundColor = undefined;
      this.item.accessibilityInformation = { label: `Agent Workbench connected to ${info.host}` };
    } else {
      const words = notConnectedWords(state);
      this.item.text = words.text;
      this.item.tooltip = words.tooltip;
      this.item.backgroundColor = words.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
      this.item.accessibilityInformation = { label: words.label };
    }
  }
}
