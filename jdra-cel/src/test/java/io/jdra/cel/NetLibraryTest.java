package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Kubernetes IP and CIDR libraries in device selectors (upstream's base environment has them
 * since 1.30), with upstream's examples and error texts (Go's netip messages).
 */
class NetLibraryTest {
  private static final DeviceSelectorCompiler COMPILER =
      DeviceSelectorCompiler.create(CompilerOptions.storedExpressions());
  private static final DeviceInput DEVICE =
      DeviceInput.builder("net.example.com")
          .attribute("ipv4", "10.1.2.3")
          .attribute("subnet", "10.0.0.0/8")
          .build();

  static Stream<Arguments> trueExpressions() {
    return Stream.of(
        t("isIP", "isIP('1.2.3.4') && isIP('::1') && !isIP('127.0.0.256') && !isIP(':::1')"),
        t("isIP strict", "!isIP('1.2.3.04') && !isIP('::ffff:1.2.3.4') && !isIP('fe80::1%eth0')"),
        t("family", "ip('127.0.0.1').family() == 4 && ip('::1').family() == 6"),
        t(
            "ip.isCanonical",
            "ip.isCanonical('127.0.0.1') && ip.isCanonical('2001:db8::abcd')"
                + " && !ip.isCanonical('2001:DB8::ABCD') && !ip.isCanonical('2001:db8::0:0:0:abcd')"),
        t("string of IPv6 (RFC 5952)", "string(ip('2001:db8:0:0:1:0:0:1')) == '2001:db8::1:0:0:1'"),
        t("string of short forms", "string(ip('::')) == '::' && string(ip('1::')) == '1::'"),
        t("embedded IPv4 tail", "string(ip('::1.2.3.4')) == '::102:304'"),
        t("isUnspecified", "ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified()"),
        t("isLoopback", "ip('127.0.0.1').isLoopback() && ip('::1').isLoopback()"),
        t("not loopback", "!ip('192.168.0.1').isLoopback() && !ip('2001:db8::abcd').isLoopback()"),
        t(
            "isLinkLocalMulticast",
            "ip('224.0.0.1').isLinkLocalMulticast() && !ip('224.0.1.1').isLinkLocalMulticast()"
                + " && ip('ff02::1').isLinkLocalMulticast() && !ip('fd00::1').isLinkLocalMulticast()"),
        t(
            "isLinkLocalUnicast",
            "ip('169.254.169.254').isLinkLocalUnicast() && !ip('192.168.0.1').isLinkLocalUnicast()"
                + " && ip('fe80::1').isLinkLocalUnicast() && !ip('fd80::1').isLinkLocalUnicast()"),
        t(
            "isGlobalUnicast",
            "ip('192.168.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast()"
                + " && ip('2001:db8::abcd').isGlobalUnicast() && !ip('ff00::1').isGlobalUnicast()"),
        t("IP equality", "ip('1.2.3.4') == ip('1.2.3.4') && ip('::1') != ip('::2')"),
        t("type", "type(ip('1.2.3.4')) == net.IP && type(cidr('1.0.0.0/8')) == net.CIDR"),
        t("isCIDR", "isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0') && !isCIDR('1.2.3.4/08')"),
        t(
            "containsIP",
            "cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))"
                + " && !cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))"
                + " && cidr('192.168.0.0/24').containsIP('192.168.0.1')"
                + " && !cidr('2001:db8::/32').containsIP('192.168.0.1')"),
        t(
            "containsCIDR",
            "cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/33'))"
                + " && !cidr('2001:db8::/32').containsCIDR('2001:db8::/31')"
                + " && !cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24')"),
        // Upstream compares the other network's address as written with this masked address.
        t("containsCIDR as upstream", "!cidr('192.168.0.0/16').containsCIDR('192.168.10.0/24')"),
        t("cidr ip", "cidr('192.168.0.1/24').ip() == ip('192.168.0.1')"),
        t("cidr ip family", "cidr('::1/128').ip().family() == 6"),
        t(
            "masked",
            "cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')"
                + " && cidr('192.168.0.1/24') != cidr('192.168.0.1/24').masked()"),
        t("masked IPv6", "string(cidr('2001:db8:1::/32').masked()) == '2001:db8::/32'"),
        t("prefixLength", "cidr('192.168.0.0/16').prefixLength() == 16"),
        t("string of CIDR", "string(cidr('192.168.0.0/24')) == '192.168.0.0/24'"),
        t(
            "on attributes",
            "cidr(device.attributes['net.example.com'].subnet)"
                + ".containsIP(device.attributes['net.example.com'].ipv4)"),
        t("in a list literal", "[ip('1.2.3.4'), ip('::1')].exists(a, a.family() == 6)"));
  }

  static Arguments t(String name, String expression) {
    return Arguments.of(name, expression);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("trueExpressions")
  void evaluatesToTrue(String name, String expression) throws Exception {
    CompilationResult r = COMPILER.compile(expression);
    assertThat(r.error()).as(expression).isEmpty();
    assertThat(r.orElseThrow().matches(DEVICE)).as(expression).isTrue();
  }

  static Stream<Arguments> runtimeErrors() {
    String ip = "IP Address \"%s\" parse error during conversion from string: ParseAddr(\"%s\"): ";
    String cidr =
        "network address parse error during conversion from string: network address parse error"
            + " during conversion from string: netip.ParsePrefix(\"%s\"): ";
    return Stream.of(
        t(
            "ip('1.2.3.04')",
            ip.formatted("1.2.3.04", "1.2.3.04") + "IPv4 field has octet with leading zero"),
        t(
            "ip('127.0.0.256')",
            ip.formatted("127.0.0.256", "127.0.0.256") + "IPv4 field has value >255"),
        t("ip('1.2.3')", ip.formatted("1.2.3", "1.2.3") + "IPv4 address too short"),
        t("ip('')", ip.formatted("", "") + "unable to parse IP"),
        t(
            "ip(':::1')",
            ip.formatted(":::1", ":::1")
                + "each colon-separated field must have at least one digit (at \":1\")"),
        t(
            "ip('1::2::3')",
            ip.formatted("1::2::3", "1::2::3") + "multiple :: in address (at \":3\")"),
        t(
            "ip('1:2:3:4:5:6:7:8:9')",
            ip.formatted("1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8:9")
                + "trailing garbage after address (at \"9\")"),
        t("ip('::ffff:1.2.3.4')", "IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed"),
        t("ip('fe80::1%eth0')", "IP address \"fe80::1%eth0\" with zone value is not allowed"),
        t("ip.isCanonical('x')", ip.formatted("x", "x") + "unable to parse IP"),
        t("cidr('2001:db8::/')", cidr.formatted("2001:db8::/") + "bad bits after slash: \"\""),
        t("cidr('1.2.3.4')", cidr.formatted("1.2.3.4") + "no '/'"),
        t("cidr('1.2.3.4/33')", cidr.formatted("1.2.3.4/33") + "prefix length out of range"),
        t("cidr('1.2.3.4/08')", cidr.formatted("1.2.3.4/08") + "bad bits after slash: \"08\""),
        t(
            "cidr('fe80::1%eth0/64')",
            cidr.formatted("fe80::1%eth0/64") + "IPv6 zones cannot be present in a prefix"),
        t(
            "cidr('::ffff:1.2.3.4/120')",
            "network address parse error during conversion from string: IPv4-mapped IPv6 address"
                + " \"::ffff:1.2.3.4/120\" is not allowed"),
        t("cidr('10.0.0.0/8').containsIP('x')", ip.formatted("x", "x") + "unable to parse IP"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runtimeErrors")
  void failsAtRunTime(String expression, String message) {
    CompiledSelector selector = COMPILER.compile(expression + " == " + expression).orElseThrow();
    assertThatThrownBy(() -> selector.matches(DEVICE))
        .isInstanceOf(CelEvaluationException.class)
        .hasMessage(message);
  }
}
