import { PhoneSendPage } from './PhoneSendPage';

export default function SmsPage() {
  return <PhoneSendPage kind="sms" />;
}
