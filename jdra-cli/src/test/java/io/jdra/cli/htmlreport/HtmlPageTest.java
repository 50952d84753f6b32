package io.jdra.cli.htmlreport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HtmlPageTest {
  @TempDir Path tmp;

  @Test
  void writesOneSelfContainedEscapedFile() throws IOException {
    HtmlPage page =
        new HtmlPage("a <b> & c")
            .paragraph("x < y")
            .table(List.of("name", "value"), List.of(List.of("<script>", "12.5%")))
            .chart(
                LineChart.builder("up & down")
                    .axes("time", "pods")
                    .timeAxis()
                    .series("p<1>", new double[] {0, 60, 120}, new double[] {0, 5, 2})
                    .build());
    Path f = page.writeTo(tmp.resolve("r"));
    assertThat(f).isEqualTo(tmp.resolve("r/index.html"));
    String html = Files.readString(f);
    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains("<title>a &lt;b&gt; &amp; c</title>")
        .contains("<td>&lt;script&gt;</td>")
        .contains("<td class=\"n\">12.5%</td>")
        .contains("<svg")
        .contains("<polyline")
        .contains("p&lt;1&gt;")
        .doesNotContain("<script>")
        .doesNotContain("src=")
        .doesNotContain("href=");
    assertThat(Files.list(tmp.resolve("r"))).hasSize(1);
  }

  /** A report is a file to open, copy or serve: readable by others as the umask allows. */
  @Test
  void reportIsNotOwnerOnly() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        tmp.getFileSystem().supportedFileAttributeViews().contains("posix"));
    Path plain = Files.writeString(tmp.resolve("plain"), "x");
    Path f = new HtmlPage("t").paragraph("p").writeTo(tmp.resolve("r"));
    assertThat(Files.getPosixFilePermissions(f)).isEqualTo(Files.getPosixFilePermissions(plain));
  }

  static Stream<Arguments> ticks() {
    return Stream.of(
        Arguments.of(0.0, 1.0, new double[] {0, 0.2, 0.4, 0.6, 0.8, 1.0}),
        Arguments.of(0.0, 47.0, new double[] {0, 10, 20, 30, 40, 50}),
        Arguments.of(0.0, 317.0, new double[] {0, 100, 200, 300, 400}));
  }

  @ParameterizedTest(name = "{0}..{1}")
  @MethodSource("ticks")
  void roundTicks(double lo, double hi, double[] expected) {
    assertThat(LineChart.ticks(lo, hi))
        .containsExactly(expected, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void timeTicksAreRoundDurations() {
    assertThat(LineChart.timeTicks(0, 12 * 3600 + 43 * 60))
        .containsExactly(0, 3 * 3600, 6 * 3600, 9 * 3600, 12 * 3600);
    assertThat(LineChart.duration(5400)).isEqualTo("1h30m");
    assertThat(LineChart.duration(0)).isEqualTo("0");
  }
}
