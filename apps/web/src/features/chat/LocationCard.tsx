/**
 * A place a customer shared: its name and address when the phone sent them, the coordinates,
 * and links that open it in a map (OpenStreetMap, and Google Maps as WhatsApp links it).
 */
import Place from '@mui/icons-material/Place';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { openStreetMapLink, parseLocation } from './messageContent';

/** Coordinates as maps write them (a dot for decimals, whatever the language): they are pasted into map searches. */
function coordinates(latitude: number, longitude: number): string {
  return `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`;
}

export function LocationCard({ body }: { body: string }) {
  const { t } = useTranslation();
  const place = parseLocation(body);
  const hasPoint = place.latitude !== null && place.longitude !== null;
  const osm = place.latitude !== null && place.longitude !== null ? openStreetMapLink(place.latitude, place.longitude) : '';
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', p: 1, borderRadius: 1, bgcolor: 'rgba(0,0,0,0.04)', minWidth: 220, maxWidth: 320 }} data-testid="message-location">
      <Place color="error" sx={{ mt: 0.25 }} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="body2" fontWeight={600} sx={{ wordBreak: 'break-word' }} data-testid="message-location-name">
          {place.name || t('chatLocation.shared')}
        </Typography>
        {place.address ? (
          <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }} data-testid="message-location-address">
            {place.address}
          </Typography>
        ) : null}
        {hasPoint ? (
          <Typography variant="caption" color="text.secondary" component="div" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="message-location-coordinates">
            {coordinates(place.latitude ?? 0, place.longitude ?? 0)}
          </Typography>
        ) : null}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1.5, mt: 0.5 }}>
          {osm ? (
            <Link href={osm} target="_blank" rel="noopener noreferrer" variant="body2" fontWeight={600} data-testid="message-location-link">
              {t('chat.openMap')}
            </Link>
          ) : null}
          {place.mapLink ? (
            <Link href={place.mapLink} target="_blank" rel="noopener noreferrer" variant="body2" data-testid={osm ? 'message-location-google' : 'message-location-link'}>
              {t('chatLocation.google')}
            </Link>
          ) : null}
        </Box>
      </Box>
    </Box>
  );
}
