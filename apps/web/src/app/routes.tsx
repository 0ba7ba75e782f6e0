/**
 * The one list of private routes. It feeds both the router and the side menu. Routes without
 * `load` show the 'coming soon' page until their feature lands: give them a `load` then.
 * Paths match case-insensitively, so /Queues and /Settings reach the same pages as /queues and /settings.
 */
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import AlternateEmail from '@mui/icons-material/AlternateEmail';
import ContactPhoneOutlined from '@mui/icons-material/ContactPhoneOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import EventOutlined from '@mui/icons-material/EventOutlined';
import FolderOpenOutlined from '@mui/icons-material/FolderOpenOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import Instagram from '@mui/icons-material/Instagram';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import ManageSearchOutlined from '@mui/icons-material/ManageSearchOutlined';
import MicNoneOutlined from '@mui/icons-material/MicNoneOutlined';
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import PhoneInTalkOutlined from '@mui/icons-material/PhoneInTalkOutlined';
import QuestionAnswerOutlined from '@mui/icons-material/QuestionAnswerOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import SmsOutlined from '@mui/icons-material/SmsOutlined';
import SyncAltOutlined from '@mui/icons-material/SyncAltOutlined';
import ViewKanbanOutlined from '@mui/icons-material/ViewKanbanOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import WebhookOutlined from '@mui/icons-material/WebhookOutlined';
import type { ComponentType } from 'react';
import type { Permission } from '@zapdesk/shared/permissions';
import type { Messages } from '../i18n/locales/en';

export type MenuLabelKey = keyof Messages['menu'];
export type MenuSection = 'main' | 'bulk' | 'admin';
type MenuIcon = typeof DashboardOutlined;

export type PrivateRoute = {
  path: string;
  /** Menu label and page title. */
  labelKey: MenuLabelKey;
  /** Where the route shows in the side menu; none for sub-routes. */
  menu?: { section: MenuSection; icon: MenuIcon };
  adminOnly?: boolean;
  /** The power the page needs: without it the menu has no entry and the page says so. */
  permission?: Permission;
  /** The page module. */
  load: () => Promise<{ default: ComponentType }>;
};

// One loader for both ticket routes, so the list keeps its state while a chat opens or closes.
const loadTickets = () => import('../features/tickets/TicketsPage');

export const PRIVATE_ROUTES: readonly PrivateRoute[] = [
  { path: '/', labelKey: 'dashboard', menu: { section: 'main', icon: DashboardOutlined }, load: () => import('../features/dashboard/DashboardPage') },
  { path: '/tickets', labelKey: 'tickets', menu: { section: 'main', icon: ForumOutlined }, load: loadTickets },
  { path: '/tickets/:ticketId', labelKey: 'tickets', load: loadTickets },
  {
    path: '/connections',
    labelKey: 'connections',
    menu: { section: 'main', icon: SyncAltOutlined },
    permission: 'connectionsView',
    load: () => import('../features/whatsapps/ConnectionsPage'),
  },
  {
    path: '/contacts',
    labelKey: 'contacts',
    menu: { section: 'main', icon: ContactPhoneOutlined },
    load: () => import('../features/contacts/ContactsPage'),
  },
  {
    path: '/quickAnswers',
    labelKey: 'quickAnswers',
    menu: { section: 'main', icon: QuestionAnswerOutlined },
    load: () => import('../features/quickAnswers/QuickAnswersPage'),
  },
  { path: '/mentions', labelKey: 'mentions', menu: { section: 'main', icon: AlternateEmail }, load: () => import('../features/notes/MentionsPage') },
  { path: '/Kanban', labelKey: 'kanban', menu: { section: 'main', icon: ViewKanbanOutlined }, load: () => import('../features/kanban/KanbanPage') },
  { path: '/reports', labelKey: 'reports', menu: { section: 'main', icon: InsightsOutlined }, permission: 'reports', load: () => import('../features/reports/ReportsPage') },

  { path: '/ZDG', labelKey: 'bulkText', menu: { section: 'bulk', icon: SendOutlined }, permission: 'campaigns', load: () => import('../features/campaigns/BulkTextPage') },
  { path: '/ZDGMedia', labelKey: 'bulkMediaUrl', menu: { section: 'bulk', icon: LinkOutlined }, permission: 'campaigns', load: () => import('../features/campaigns/BulkMediaUrlPage') },
  { path: '/ZDGMedia2', labelKey: 'bulkMediaPath', menu: { section: 'bulk', icon: FolderOpenOutlined }, permission: 'campaigns', load: () => import('../features/campaigns/BulkMediaPathPage') },
  { path: '/ZDGMedia3', labelKey: 'bulkAudio', menu: { section: 'bulk', icon: MicNoneOutlined }, permission: 'campaigns', load: () => import('../features/campaigns/BulkVoicePage') },
  { path: '/ZDGGroups', labelKey: 'groups', menu: { section: 'bulk', icon: GroupsOutlined }, permission: 'groups', load: () => import('../features/groups/GroupsPage') },
  { path: '/ZDGAgendamento', labelKey: 'scheduled', menu: { section: 'bulk', icon: EventOutlined }, permission: 'campaigns', load: () => import('../features/campaigns/ScheduledPage') },
  { path: '/ZDGChatbot', labelKey: 'bot', menu: { section: 'bulk', icon: SmartToyOutlined }, load: () => import('../features/chatbot/ChatbotPage') },
  { path: '/InstaDirect', labelKey: 'directIg', menu: { section: 'bulk', icon: Instagram }, permission: 'instagram', load: () => import('../features/instagram/InstaDirectPage') },
  { path: '/SMS', labelKey: 'sms', menu: { section: 'bulk', icon: SmsOutlined }, permission: 'phone', load: () => import('../features/phone/SmsPage') },
  { path: '/VoiceCall', labelKey: 'voiceCall', menu: { section: 'bulk', icon: PhoneInTalkOutlined }, permission: 'phone', load: () => import('../features/phone/VoiceCallPage') },
  { path: '/ZDGHistorico', labelKey: 'history', menu: { section: 'bulk', icon: HistoryOutlined }, permission: 'campaigns', load: () => import('../features/campaigns/HistoryPage') },

  {
    path: '/users',
    labelKey: 'users',
    menu: { section: 'admin', icon: PeopleAltOutlined },
    adminOnly: true,
    load: () => import('../features/users/UsersPage'),
  },
  {
    path: '/queues',
    labelKey: 'queues',
    menu: { section: 'admin', icon: AccountTreeOutlined },
    adminOnly: true,
    load: () => import('../features/queues/QueuesPage'),
  },
  { path: '/labels', labelKey: 'labels', menu: { section: 'admin', icon: LocalOfferOutlined }, adminOnly: true, load: () => import('../features/labels/LabelsPage') },
  {
    path: '/roles',
    labelKey: 'roles',
    menu: { section: 'admin', icon: AdminPanelSettingsOutlined },
    adminOnly: true,
    load: () => import('../features/roles/RolesPage'),
  },
  {
    path: '/settings',
    labelKey: 'settings',
    menu: { section: 'admin', icon: SettingsOutlined },
    permission: 'settings',
    load: () => import('../features/settings/SettingsPage'),
  },
  {
    path: '/webhooks',
    labelKey: 'webhooks',
    menu: { section: 'admin', icon: WebhookOutlined },
    adminOnly: true,
    load: () => import('../features/webhooks/WebhooksPage'),
  },
  { path: '/webhooks/:webhookId', labelKey: 'webhooks', adminOnly: true, load: () => import('../features/webhooks/DeliveriesPage') },
  {
    path: '/audit',
    labelKey: 'audit',
    menu: { section: 'admin', icon: ManageSearchOutlined },
    adminOnly: true,
    load: () => import('../features/audit/AuditPage'),
  },
];

/** Menu section headings; the main section has none. */
export const SECTION_LABELS: Record<Exclude<MenuSection, 'main'>, MenuLabelKey> = { bulk: 'bulk', admin: 'administration' };
