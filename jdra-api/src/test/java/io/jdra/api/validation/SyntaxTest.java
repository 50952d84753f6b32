package io.jdra.api.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Each syntax test answers as upstream's regular expression, on chosen and random strings. */
class SyntaxTest {
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern LABEL_VALUE =
      Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
  private static final Pattern NAME_PART =
      Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");

  @Test
  void answersAsTheRegularExpressions() {
    List<String> inputs =
        new ArrayList<>(
            List.of(
                "",
                "a",
                "A",
                "0",
                "-",
                ".",
                "_",
                "a-b",
                "a.b",
                "a..b",
                ".a",
                "a.",
                "a-",
                "-a",
                "ab_c",
                "Ab.c-D_e",
                "x.example.com",
                "x.-y",
                "x-.y",
                "é",
                "a b",
                "a/b"));
    Random random = new Random(42);
    String alphabet = "aZ09-._/ é";
    for (int i = 0; i < 20000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = random.nextInt(7);
      for (int j = 0; j < n; j++) {
        sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      inputs.add(sb.toString());
    }
    for (String s : inputs) {
      assertThat(Syntax.dnsLabel(s)).as(s).isEqualTo(DNS1123_LABEL.matcher(s).matches());
      assertThat(Syntax.dnsSubdomain(s)).as(s).isEqualTo(DNS1123_SUBDOMAIN.matcher(s).matches());
      assertThat(Syntax.namePart(s)).as(s).isEqualTo(NAME_PART.matcher(s).matches());
      assertThat(Syntax.labelValue(s)).as(s).isEqualTo(LABEL_VALUE.matcher(s).matches());
    }
  }
}
