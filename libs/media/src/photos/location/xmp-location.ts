/**
 * XMP may repeat the GPS position (exif:GPSLatitude, ...) or name the place
 * (Iptc4xmpCore:Location, photoshop:City, LocationShown, ...). A packet that
 * mentions any of them is emptied as a whole: an XMP packet is one XML
 * document, and editing it property by property is a parser's job, for data
 * a photo does not need to be shown.
 */
const LOCATION = /GPS|Location|photoshop:(?:City|State|Country)|CountryCode/i;

export const mentionsLocation = (xmp: Buffer) => LOCATION.test(xmp.toString('latin1'));

const OPEN = '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/>';
const CLOSE = '<?xpacket end="w"?>';

/**
 * Overwrites a packet with an empty one of the same length (XMP's own
 * padding, spaces, fills the rest), so the container around it keeps its
 * sizes; a space too short for even an empty packet becomes spaces.
 */
export function emptyInPlace(packet: Buffer): void {
  packet.fill(0x20);
  if (packet.length >= OPEN.length + CLOSE.length) {
    packet.write(OPEN, 0, 'latin1');
    packet.write(CLOSE, packet.length - CLOSE.length, 'latin1');
  }
}
