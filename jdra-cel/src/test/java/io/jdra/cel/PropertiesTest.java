package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Properties of versions and attribute lookup. */
class PropertiesTest {
  private static final DeviceSelectorCompiler COMPILER =
      DeviceSelectorCompiler.create(CompilerOptions.defaults());

  @Provide
  Arbitrary<String> versions() {
    Arbitrary<String> number = Arbitraries.longs().between(0, 20).map(String::valueOf);
    Arbitrary<String> identifier =
        Arbitraries.oneOf(
            number, Arbitraries.strings().withCharRange('a', 'c').ofMinLength(1).ofMaxLength(3));
    Arbitrary<String> pre =
        identifier.list().ofMaxSize(3).map(l -> l.isEmpty() ? "" : "-" + String.join(".", l));
    return Combinators.combine(number, number, number, pre)
        .as((a, b, c, p) -> a + "." + b + "." + c + p);
  }

  @Property(tries = 300)
  void versionsPrintAsParsed(@ForAll("versions") String v) {
    assertThat(Semver.parse(v).toString()).isEqualTo(v);
  }

  @Property(tries = 100)
  void versionOrderIsAntisymmetricAndMatchesCel(
      @ForAll("versions") String a, @ForAll("versions") String b) throws Exception {
    Semver x = Semver.parse(a);
    Semver y = Semver.parse(b);
    assertThat(Integer.signum(x.compareTo(y))).isEqualTo(-Integer.signum(y.compareTo(x)));
    assertThat(x.equals(y)).isEqualTo(x.compareTo(y) == 0);
    CompiledSelector s =
        COMPILER
            .compile("semver('" + a + "').compareTo(semver('" + b + "')) == " + x.compareTo(y))
            .orElseThrow();
    assertThat(s.matches(DeviceInput.builder("d").build())).isTrue();
  }

  @Property(tries = 300)
  void versionOrderIsTransitive(
      @ForAll("versions") String a, @ForAll("versions") String b, @ForAll("versions") String c) {
    List<Semver> sorted = java.util.stream.Stream.of(a, b, c).map(Semver::parse).sorted().toList();
    assertThat(sorted.get(0).compareTo(sorted.get(2))).isLessThanOrEqualTo(0);
  }

  @Provide
  Arbitrary<String> ids() {
    return Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8);
  }

  @Property(tries = 100)
  void unqualifiedAndQualifiedNamesOfTheDriverAreTheSame(
      @ForAll("ids") String id,
      @ForAll @LongRange(min = -1000, max = 1000) long value,
      @ForAll boolean qualified,
      @ForAll @IntRange(min = 0, max = 2) int others)
      throws Exception {
    String driver = "gpu.example.com";
    DeviceInput.Builder b = DeviceInput.builder(driver);
    b.attribute(qualified ? driver + "/" + id : id, value);
    for (int i = 0; i < others; i++) {
      b.attribute("other" + i + ".example.com/" + id, value + 1);
    }
    DeviceInput device = b.build();
    String lookup = "device.attributes['" + driver + "']['" + id + "'] == " + value;
    assertThat(COMPILER.compile(lookup).orElseThrow().matches(device)).isTrue();
    assertThat(
            COMPILER
                .compile("device.attributes.size() == " + (others + 1))
                .orElseThrow()
                .matches(device))
        .isTrue();
    CompiledSelector missing =
        COMPILER.compile("device.attributes['" + driver + "']['" + id + "x'] == 0").orElseThrow();
    assertThatThrownBy(() -> missing.matches(device)).hasMessage("no such key: " + id + "x");
  }
}
