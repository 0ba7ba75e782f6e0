import { useEffect, useState } from 'react';
import { CONNECTION_ALERT_STATUSES, LIMITS } from '@zapdesk/shared/domain';
import { useWhatsapps } from '../../features/whatsapps/whatsapps.api';

/** True when a connection needs attention; checked a moment after the list changes (spec: 2 s). */
export function useConnectionAlert(): boolean {
  const { data } = useWhatsapps();
  const [alert, setAlert] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => {
      setAlert((data ?? []).some((connection) => CONNECTION_ALERT_STATUSES.includes(connection.status)));
    }, LIMITS.connectionBadgeDelayMs);
    return () => clearTimeout(timer);
  }, [data]);
  return alert;
}
