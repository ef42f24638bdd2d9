import { createFileRoute } from '@tanstack/react-router';
import { ChangePasswordForm } from '../../components/user/change-password-form';
import { ContactVerification } from '../../components/user/contact-verification';
import { DeleteAccount } from '../../components/user/delete-account';
import { DownloadData } from '../../components/user/download-data';
import { SessionsList } from '../../components/user/sessions-list';
import { Card } from '../../components/user/status-badge';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/_user/security')({ component: SecurityPage });

function SecurityPage() {
  useDocumentTitle('Security');
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Security</h1>
      <Card title="Change password">
        <ChangePasswordForm />
      </Card>
      <Card title="Active sessions">
        <SessionsList />
      </Card>
      <Card title="Email and phone">
        <ContactVerification />
      </Card>
      <Card title="Your data">
        <DownloadData />
      </Card>
      <Card title="Delete account">
        <DeleteAccount />
      </Card>
    </div>
  );
}
