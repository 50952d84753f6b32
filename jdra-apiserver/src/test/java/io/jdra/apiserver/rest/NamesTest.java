package io.jdra.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Timestamps remembered per second read as formatting each instant gives them. */
class NamesTest {
  @Test
  void timestampIsTheFormattedSecondWhateverCameBefore() {
    Random r = new Random(7);
    Instant base = Instant.parse("2026-11-27T12:59:58.250Z");
    for (int i = 0; i < 2_000; i++) {
      // runs within one second, steps to the next and back, far jumps
      long seconds = r.nextInt(4) == 0 ? r.nextInt(1_000_000) - 500_000 : r.nextInt(3);
      Instant t = base.plusSeconds(seconds).plusNanos(r.nextInt(1_000_000_000));
      assertThat(Names.timestamp(t)).as("%s", t).isEqualTo(Names.format(t));
    }
  }

  @Test
  void secondPrecisionAsMetav1Time() {
    assertThat(Names.timestamp(Instant.parse("2026-11-27T12:59:58.999Z")))
        .isEqualTo("2026-11-27T12:59:58Z");
    assertThat(Names.timestamp(Instant.parse("2026-11-27T12:59:59Z")))
        .isEqualTo("2026-11-27T12:59:59Z");
    assertThat(Names.timestamp(Instant.parse("1970-01-01T00:00:00.5Z")))
        .isEqualTo("1970-01-01T00:00:00Z");
  }
}
