package io.jdra.cel;

import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.values.CelValue;
import java.util.Arrays;

/**
 * An IP address as the CEL type {@code net.IP} of the Kubernetes IP library: 4 or 16 bytes, never a
 * zone or an IPv4-mapped IPv6 address (the library rejects those). Printed and compared as Go's
 * {@code netip.Addr}.
 */
final class IpValue extends CelValue {
  static final OpaqueType TYPE = OpaqueType.create("net.IP");

  private final byte[] bytes;

  IpValue(byte[] bytes) {
    this.bytes = bytes.clone();
  }

  byte[] bytes() {
    return bytes.clone();
  }

  boolean is4() {
    return bytes.length == 4;
  }

  int bitLength() {
    return bytes.length * 8;
  }

  private int u16(int i) {
    return ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
  }

  private int u8(int i) {
    return bytes[i] & 0xff;
  }

  boolean isUnspecified() {
    for (byte b : bytes) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  boolean isLoopback() {
    if (is4()) {
      return u8(0) == 127;
    }
    for (int i = 0; i < 15; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return bytes[15] == 1;
  }

  boolean isMulticast() {
    return is4() ? (u8(0) & 0xf0) == 0xe0 : u8(0) == 0xff;
  }

  boolean isLinkLocalMulticast() {
    return is4() ? u8(0) == 224 && u8(1) == 0 && u8(2) == 0 : (u16(0) & 0xff0f) == 0xff02;
  }

  boolean isLinkLocalUnicast() {
    return is4() ? u8(0) == 169 && u8(1) == 254 : (u16(0) & 0xffc0) == 0xfe80;
  }

  /** Go's rule: private IPv4 and ULA IPv6 addresses count as global unicast too. */
  boolean isGlobalUnicast() {
    if (is4() && (isUnspecified() || Arrays.equals(bytes, new byte[] {-1, -1, -1, -1}))) {
      return false;
    }
    return !isUnspecified() && !isLoopback() && !isMulticast() && !isLinkLocalUnicast();
  }

  /** The address with all bits after the first {@code bits} cleared. */
  IpValue masked(int bits) {
    byte[] out = bytes.clone();
    for (int i = 0; i < out.length; i++) {
      int keep = Math.max(0, Math.min(8, bits - 8 * i));
      out[i] = (byte) (out[i] & (0xff << (8 - keep)));
    }
    return new IpValue(out);
  }

  /** Go's {@code Addr.String()}: dotted IPv4; IPv6 in RFC 5952 form (the longest zero run). */
  @Override
  public String toString() {
    if (is4()) {
      return u8(0) + "." + u8(1) + "." + u8(2) + "." + u8(3);
    }
    int zeroStart = -1;
    int zeroEnd = -1;
    for (int i = 0; i < 8; i++) {
      int j = i;
      while (j < 8 && u16(j) == 0) {
        j++;
      }
      if (j - i >= 2 && j - i > zeroEnd - zeroStart) {
        zeroStart = i;
        zeroEnd = j;
      }
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == zeroStart) {
        b.append("::");
        i = zeroEnd;
        if (i >= 8) {
          break;
        }
      } else if (i > 0) {
        b.append(':');
      }
      b.append(Integer.toHexString(u16(i)));
    }
    return b.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IpValue other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public Object value() {
    return this;
  }

  @Override
  public boolean isZeroValue() {
    return false;
  }

  @Override
  public CelType celType() {
    return TYPE;
  }

  /** A network as the CEL type {@code net.CIDR}: an address and a prefix length (unmasked). */
  static final class Cidr extends CelValue {
    static final OpaqueType TYPE = OpaqueType.create("net.CIDR");

    private final IpValue addr;
    private final int bits;

    Cidr(IpValue addr, int bits) {
      this.addr = addr;
      this.bits = bits;
    }

    IpValue addr() {
      return addr;
    }

    int bits() {
      return bits;
    }

    Cidr masked() {
      return new Cidr(addr.masked(bits), bits);
    }

    boolean contains(IpValue ip) {
      return ip.is4() == addr.is4() && ip.masked(bits).equals(addr.masked(bits));
    }

    /**
     * Upstream's test, kept as is: this network's masked address must equal the other's address as
     * written, and this prefix be at most as long. So {@code 10.0.0.0/8} contains {@code
     * 10.0.0.0/16} but not {@code 10.1.0.0/16}, exactly as Kubernetes answers.
     */
    boolean contains(Cidr other) {
      return addr.masked(bits).equals(other.addr) && bits <= other.bits;
    }

    @Override
    public String toString() {
      return addr + "/" + bits;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Cidr other && bits == other.bits && addr.equals(other.addr);
    }

    @Override
    public int hashCode() {
      return addr.hashCode() * 31 + bits;
    }

    @Override
    public Object value() {
      return this;
    }

    @Override
    public boolean isZeroValue() {
      return false;
    }

    @Override
    public CelType celType() {
      return TYPE;
    }
  }
}
