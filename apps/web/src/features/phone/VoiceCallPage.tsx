import { PhoneSendPage } from './PhoneSendPage';

export default function VoiceCallPage() {
  return <PhoneSendPage kind="call" />;
}
