package io.jdra.cel;

import static dev.cel.common.types.SimpleType.BOOL;
import static dev.cel.common.types.SimpleType.INT;
import static dev.cel.common.types.SimpleType.STRING;

import dev.cel.common.types.CelType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;
import java.util.function.Predicate;

/**
 * The Kubernetes IP and CIDR libraries ({@code net.IP}, {@code net.CIDR}), part of the base CEL
 * environment since 1.30 and so of device selectors: {@code ip}, {@code isIP}, {@code
 * ip.isCanonical}, {@code family} and the address class tests; {@code cidr}, {@code isCIDR}, {@code
 * containsIP}, {@code containsCIDR}, {@code ip()}, {@code masked}, {@code prefixLength}; {@code
 * string()} of both. Zones and IPv4-mapped IPv6 addresses are rejected, as upstream.
 */
final class NetLibrary {
  private static final CelType IP = IpValue.TYPE;
  private static final CelType CIDR = IpValue.Cidr.TYPE;

  private NetLibrary() {}

  static void register(FunctionTable t) {
    registerIp(t);
    registerCidr(t);
  }

  private static void registerIp(FunctionTable t) {
    t.global(
        "ip",
        "string_to_ip",
        IP,
        List.of(STRING),
        CelFunctionBinding.from("string_to_ip", String.class, NetLibrary::ip));
    t.global(
        "isIP",
        "is_ip",
        BOOL,
        List.of(STRING),
        CelFunctionBinding.from("is_ip", String.class, s -> parseIp(s) instanceof IpValue));
    t.global(
        "ip.isCanonical",
        "ip_is_canonical",
        BOOL,
        List.of(STRING),
        CelFunctionBinding.from("ip_is_canonical", String.class, s -> ip(s).toString().equals(s)));
    t.global(
        "string",
        "ip_to_string",
        STRING,
        List.of(IP),
        CelFunctionBinding.from("ip_to_string", IpValue.class, IpValue::toString));
    t.member(
        "family",
        "ip_family",
        INT,
        List.of(IP),
        CelFunctionBinding.from("ip_family", IpValue.class, ip -> ip.is4() ? 4L : 6L));
    test(t, "isUnspecified", "ip_is_unspecified", IpValue::isUnspecified);
    test(t, "isLoopback", "ip_is_loopback", IpValue::isLoopback);
    test(t, "isLinkLocalMulticast", "ip_is_link_local_multicast", IpValue::isLinkLocalMulticast);
    test(t, "isLinkLocalUnicast", "ip_is_link_local_unicast", IpValue::isLinkLocalUnicast);
    test(t, "isGlobalUnicast", "ip_is_global_unicast", IpValue::isGlobalUnicast);
  }

  private static void test(FunctionTable t, String name, String id, Predicate<IpValue> p) {
    t.member(name, id, BOOL, List.of(IP), CelFunctionBinding.from(id, IpValue.class, p::test));
  }

  private static void registerCidr(FunctionTable t) {
    t.global(
        "cidr",
        "string_to_cidr",
        CIDR,
        List.of(STRING),
        CelFunctionBinding.from("string_to_cidr", String.class, NetLibrary::cidr));
    t.global(
        "isCIDR",
        "is_cidr",
        BOOL,
        List.of(STRING),
        CelFunctionBinding.from(
            "is_cidr", String.class, s -> parseCidr(s) instanceof IpValue.Cidr));
    t.global(
        "string",
        "cidr_to_string",
        STRING,
        List.of(CIDR),
        CelFunctionBinding.from("cidr_to_string", IpValue.Cidr.class, IpValue.Cidr::toString));
    t.member(
        "containsIP",
        "cidr_contains_ip_string",
        BOOL,
        List.of(CIDR, STRING),
        CelFunctionBinding.from(
            "cidr_contains_ip_string",
            IpValue.Cidr.class,
            String.class,
            (c, s) -> c.contains(ip(s))));
    t.member(
        "containsIP",
        "cidr_contains_ip_ip",
        BOOL,
        List.of(CIDR, IP),
        CelFunctionBinding.from(
            "cidr_contains_ip_ip", IpValue.Cidr.class, IpValue.class, IpValue.Cidr::contains));
    t.member(
        "containsCIDR",
        "cidr_contains_cidr_string",
        BOOL,
        List.of(CIDR, STRING),
        CelFunctionBinding.from(
            "cidr_contains_cidr_string",
            IpValue.Cidr.class,
            String.class,
            (c, s) -> c.contains(cidr(s))));
    t.member(
        "containsCIDR",
        "cidr_contains_cidr",
        BOOL,
        List.of(CIDR, CIDR),
        CelFunctionBinding.from(
            "cidr_contains_cidr", IpValue.Cidr.class, IpValue.Cidr.class, (a, b) -> a.contains(b)));
    t.member(
        "ip",
        "cidr_ip",
        IP,
        List.of(CIDR),
        CelFunctionBinding.from("cidr_ip", IpValue.Cidr.class, IpValue.Cidr::addr));
    t.member(
        "prefixLength",
        "cidr_prefix_length",
        INT,
        List.of(CIDR),
        CelFunctionBinding.from("cidr_prefix_length", IpValue.Cidr.class, c -> (long) c.bits()));
    t.member(
        "masked",
        "cidr_masked",
        CIDR,
        List.of(CIDR),
        CelFunctionBinding.from("cidr_masked", IpValue.Cidr.class, IpValue.Cidr::masked));
  }

  /** Upstream's {@code parseIPAddr}: the address, or the error message as a String. */
  private static Object parseIp(String s) {
    NetAddresses.Parsed p;
    try {
      p = NetAddresses.parseAddr(s);
    } catch (NetAddresses.ParseException e) {
      return "IP Address "
          + quote(s)
          + " parse error during conversion from string: "
          + e.getMessage();
    }
    if (!p.zone().isEmpty()) {
      return "IP address " + quote(s) + " with zone value is not allowed";
    }
    if (is4In6(p.bytes())) {
      return "IPv4-mapped IPv6 address " + quote(s) + " is not allowed";
    }
    return new IpValue(p.bytes());
  }

  private static IpValue ip(String s) throws CelEvaluationException {
    Object r = parseIp(s);
    if (r instanceof IpValue ip) {
      return ip;
    }
    throw new CelEvaluationException((String) r);
  }

  /** Upstream's {@code parseCIDR}: the network, or the error message as a String. */
  private static Object parseCidr(String s) {
    IpValue.Cidr c;
    try {
      c = NetAddresses.parsePrefix(s);
    } catch (NetAddresses.ParseException e) {
      return "network address parse error during conversion from string: " + e.getMessage();
    }
    // A Go prefix address is 4 or 16 bytes as written; a mapped IPv4 stays 16 bytes.
    if (!c.addr().is4() && is4In6(c.addr().bytes())) {
      return "IPv4-mapped IPv6 address " + quote(s) + " is not allowed";
    }
    return c;
  }

  private static IpValue.Cidr cidr(String s) throws CelEvaluationException {
    Object r = parseCidr(s);
    if (r instanceof IpValue.Cidr c) {
      return c;
    }
    // Upstream wraps the parse error once more when converting.
    throw new CelEvaluationException(
        "network address parse error during conversion from string: " + r);
  }

  private static boolean is4In6(byte[] b) {
    if (b.length != 16) {
      return false;
    }
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return b[10] == -1 && b[11] == -1;
  }

  private static String quote(String s) {
    return io.jdra.api.validation.GoFormat.quote(s);
  }
}
