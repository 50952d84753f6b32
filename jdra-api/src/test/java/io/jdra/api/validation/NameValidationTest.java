package io.jdra.api.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NameValidationTest {
  /** The written-out syntax checks accept exactly what upstream's regular expressions accept. */
  @Test
  void syntaxChecksAreTheRegularExpressions() {
    String alphabet = "az09AZ-._/\u00e9 \n";
    java.util.Random random = new java.util.Random(1);
    int accepted = 0;
    for (int i = 0; i < 60_000; i++) {
      StringBuilder b = new StringBuilder();
      for (int n = random.nextInt(12); n > 0; n--) {
        // mostly lower-case letters and digits, so that valid names are common
        b.append(
            random.nextInt(3) == 0
                ? alphabet.charAt(random.nextInt(alphabet.length()))
                : "abcxyz0189".charAt(random.nextInt(10)));
      }
      String v = b.toString();
      assertThat(Syntax.dnsSubdomain(v))
          .as("subdomain %s", v)
          .isEqualTo(NameValidation.DNS1123_SUBDOMAIN.matcher(v).matches());
      assertThat(Syntax.dnsLabel(v))
          .as("label %s", v)
          .isEqualTo(NameValidation.DNS1123_LABEL.matcher(v).matches());
      assertThat(Syntax.namePart(v))
          .as("label key %s", v)
          .isEqualTo(NameValidation.LABEL_KEY.matcher(v).matches());
      accepted += Syntax.dnsSubdomain(v) && v.contains(".") ? 1 : 0;
    }
    assertThat(accepted).isGreaterThan(1_000);
    for (String v : List.of("", ".", "a.", ".a", "a..b", "a.b", "a-.b", "a.-b", "A", "a_b", "-")) {
      assertThat(Syntax.dnsSubdomain(v))
          .as(v)
          .isEqualTo(NameValidation.DNS1123_SUBDOMAIN.matcher(v).matches());
      assertThat(Syntax.namePart(v)).as(v).isEqualTo(NameValidation.LABEL_KEY.matcher(v).matches());
    }
  }

  @Test
  void qualifiedNames() {
    assertThat(NameValidation.isQualifiedName("example.com/MyName")).isEmpty();
    assertThat(NameValidation.isQualifiedName("my.name")).isEmpty();
    assertThat(NameValidation.isQualifiedName("/a"))
        .containsExactly("prefix part must be non-empty");
    assertThat(NameValidation.isQualifiedName("Example.com/a"))
        .containsExactly(
            "prefix part " + Messages.DNS_SUBDOMAIN.replace("253 characters", "253 bytes"));
    assertThat(NameValidation.isQualifiedName("a".repeat(64)))
        .containsExactly("name part must be no more than 63 bytes");
    assertThat(NameValidation.isQualifiedName("a/b/c")).containsExactly(Messages.LABEL_KEY_SLASHES);
  }

  @Test
  void labelValues() {
    assertThat(NameValidation.isLabelValue("")).isEmpty();
    assertThat(NameValidation.isLabelValue("a.b_c-d")).isEmpty();
    assertThat(NameValidation.isLabelValue("a".repeat(64)))
        .containsExactly("must be no more than 63 bytes");
  }

  @Test
  void dnsNamesCountBytesButReportCharacters() {
    assertThat(NameValidation.isDns1123Label("é")).containsExactly(Messages.DNS_LABEL);
    assertThat(NameValidation.isDns1123Subdomain("a".repeat(254)))
        .containsExactly("must be no more than 253 characters");
    assertThat(NameValidation.isDns1123SubdomainBytes("a".repeat(254)))
        .containsExactly("must be no more than 253 bytes");
    assertThat(NameValidation.nameIsDnsSubdomain("pod-", true)).isEmpty();
    assertThat(NameValidation.nameIsDnsSubdomain("pod-", false)).hasSize(1);
  }

  @Test
  void driverNames() {
    FieldPath p = FieldPath.root("driver");
    assertThat(NameValidation.validateDriverName("DRA.Example.COM", p)).isEmpty();
    assertThat(Fixtures.strings(NameValidation.validateDriverName("a".repeat(64), p)))
        .containsExactly("driver: Too long: may not be more than 63 bytes");
  }

  @Test
  void poolNames() {
    FieldPath p = FieldPath.root("pool");
    assertThat(NameValidation.validatePoolName("node-1/gpu.0", p)).isEmpty();
    assertThat(Fixtures.strings(NameValidation.validatePoolName("a/", p)))
        .containsExactly("pool: Invalid value: \"\": " + Messages.DNS_SUBDOMAIN);
  }

  @ParameterizedTest
  @CsvSource({
    "10.0.0.1/24, 10.0.0.1/24",
    "010.0.0.1/24, 10.0.0.1/24",
    "2001:db8::1/64, 2001:db8::1/64",
    "2001:DB8::1/64, 2001:db8::1/64",
    "2001:db8:0:0:0:0:0:1/64, 2001:db8::1/64",
    "2001:db8:0:1:0:0:0:1/128, 2001:db8:0:1::1/128",
    "::ffff:1.2.3.4/120, 1.2.3.4/24",
    "::/0, ::/0",
    "fe80::1:0:0:1/64, fe80::1:0:0:1/64"
  })
  void interfaceAddressesCanonicalForm(String value, String canonical) {
    assertThat(InterfaceAddresses.canonical(value)).isEqualTo(canonical);
  }

  @Test
  void interfaceAddressesThatAreNotCidr() {
    for (String bad :
        List.of(
            "10.0.0.1", "10.0.0.1/33", "10.0.0.256/8", "host/8", "::1/129", "1::2::3/64", "a/b")) {
      assertThat(InterfaceAddresses.canonical(bad)).as(bad).isNull();
    }
  }

  @Test
  void uids() {
    FieldPath p = FieldPath.root("uid");
    assertThat(Uids.validate(Fixtures.UID, p)).isEmpty();
    assertThat(Fixtures.strings(Uids.validate("{" + Fixtures.UID + "}", p)))
        .containsExactly(
            "uid: Invalid value: \"{"
                + Fixtures.UID
                + "}\": uid must be in RFC 4122 normalized form,"
                + " `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters");
    assertThat(Fixtures.strings(Uids.validate("x".repeat(36), p)))
        .containsExactly(
            "uid: Invalid value: \""
                + "x".repeat(36)
                + "\": error validating uid: invalid UUID format");
  }
}
