package io.jdra.api.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link GoFormat#json}'s shortcut for plain strings against the mapper's path. */
class GoFormatTest {
  /** Characters around every boundary the shortcut tests, and some that need escaping. */
  private static final String ALPHABET =
      "abcXYZ019-._/:@ ~\u007f\u0000\u001f\n\t\"\\<>&'\u00e9\u2028\u4e2d";

  @Test
  void stringsAreWrittenAsTheMapperWritesThem() {
    Random random = new Random(42);
    int plain = 0;
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      int length = random.nextInt(12);
      // half of the strings from the first (plain) characters only, so both paths are taken
      int from = random.nextBoolean() ? 17 : ALPHABET.length();
      for (int j = 0; j < length; j++) {
        sb.append(ALPHABET.charAt(random.nextInt(from)));
      }
      String s = sb.toString();
      assertThat(GoFormat.json(s)).as(s).isEqualTo(GoFormat.jsonByMapper(s));
      if (GoFormat.plain(s)) {
        plain++;
      }
    }
    assertThat(plain).isBetween(9_000, 12_000);
  }

  @Test
  void everyCharacterAloneIsWrittenAsTheMapperWritesIt() {
    for (char c = 0; c < 0x3000; c++) {
      String s = "a" + c;
      assertThat(GoFormat.json(s)).as("U+%04x", (int) c).isEqualTo(GoFormat.jsonByMapper(s));
    }
  }

  @Test
  void otherValuesTakeTheMapper() {
    assertThat(GoFormat.json(12)).isEqualTo("12");
    assertThat(GoFormat.json(java.util.List.of("a<b"))).isEqualTo("[\"a\\u003cb\"]");
    assertThat(GoFormat.json("")).isEqualTo("\"\"");
  }
}
