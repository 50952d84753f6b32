package io.jdra.apiserver.meta;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.ExampleManifests;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link ByteTrees#object} gives the tree {@link Json#MAPPER} reads (node classes and key order
 * included) or null, and null wherever the mapper refuses the bytes or finds a key twice: on the
 * upstream examples as stored and as pretty-printed, on random documents (valid and not) and on
 * every example's bytes with one byte changed, removed or added.
 */
class ByteTreesTest {
  /** The body reader's check: a repeated key is an error there. */
  private static final ObjectReader STRICT =
      Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

  /** Checks the contract on {@code json}; tells whether the fast path gave the tree. */
  private static boolean agrees(byte[] json) {
    ObjectNode fast = ByteTrees.object(json);
    JsonNode jackson;
    try {
      jackson = STRICT.readTree(json);
    } catch (JacksonException e) {
      assertThat(fast).as("refused by Jackson: %s", text(json)).isNull();
      return false;
    }
    if (fast == null) {
      return false;
    }
    TreeBytesTest.identical(fast, jackson, text(json));
    TreeBytesTest.identical(Json.parseObject(json), jackson, text(json));
    return true;
  }

  private static String text(byte[] json) {
    return new String(json, StandardCharsets.UTF_8);
  }

  @Test
  void examplesAsStoredAndPrettyPrintedTakeTheFastPath() {
    List<ObjectNode> all = ExampleManifests.all();
    for (ObjectNode o : all) {
      assertThat(agrees(Json.bytes(o))).as(o.toString()).isTrue();
      assertThat(agrees(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(o)))
          .isTrue();
    }
  }

  @Test
  void everyOneByteChangeOfTheExamplesAgrees() {
    Random rnd = new Random(7);
    byte[] alphabet =
        "{}[]\":,\\ \n0123456789-+.eEtrufalsn/xA\u007f".getBytes(StandardCharsets.UTF_8);
    int fast = 0;
    int total = 0;
    for (ObjectNode o : ExampleManifests.all().subList(0, 40)) {
      byte[] json = Json.bytes(o);
      for (int i = 0; i < json.length; i++) {
        byte b = alphabet[rnd.nextInt(alphabet.length)];
        byte[] replaced = json.clone();
        replaced[i] = b;
        byte[] removed = new byte[json.length - 1];
        System.arraycopy(json, 0, removed, 0, i);
        System.arraycopy(json, i + 1, removed, i, json.length - i - 1);
        byte[] added = new byte[json.length + 1];
        System.arraycopy(json, 0, added, 0, i);
        added[i] = rnd.nextBoolean() ? b : (byte) (0x80 + rnd.nextInt(128));
        System.arraycopy(json, i, added, i + 1, json.length - i);
        for (byte[] variant : List.of(replaced, removed, added)) {
          total++;
          fast += agrees(variant) ? 1 : 0;
        }
      }
    }
    assertThat(fast).as("variants read by the fast path").isGreaterThan(total / 20);
  }

  @Test
  void randomDocumentsAgree() {
    Random rnd = new Random(11);
    int fast = 0;
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      space(rnd, sb);
      object(rnd, sb, 0);
      space(rnd, sb);
      if (rnd.nextInt(50) == 0) {
        sb.append(rnd.nextBoolean() ? "x" : "{}");
      }
      fast += agrees(sb.toString().getBytes(StandardCharsets.UTF_8)) ? 1 : 0;
    }
    assertThat(fast).as("documents read by the fast path").isGreaterThan(2_000);
  }

  @Test
  void whatIsLeftToJackson() {
    for (String s :
        List.of(
            "{\"a\":1,\"a\":2}",
            "{\"a\":1.5}",
            "{\"a\":1e3}",
            "{\"a\":-0}",
            "{\"a\":01}",
            "{\"a\":1234567890123456789}",
            "{\"a\":\"\u00e9\"}",
            "{\"\u00e9\":1}",
            "[1]",
            "",
            "{} x",
            "{\"a\":truex}",
            "{\"a\":\"\\x\"}")) {
      assertThat(ByteTrees.object(s.getBytes(StandardCharsets.UTF_8))).as(s).isNull();
    }
    StringBuilder deep = new StringBuilder("{\"a\":");
    deep.append("[".repeat(100)).append("]".repeat(100)).append('}');
    assertThat(ByteTrees.object(deep.toString().getBytes(StandardCharsets.UTF_8))).isNull();
  }

  @Test
  void managedFieldsKeysWithEscapesAreRead() {
    byte[] json =
        "{\"f:metadata\":{\"k:{\\\"uid\\\":\\\"u-1\\\"}\":{}},\"v:\\\"a\\u0041\\\"\":{}}"
            .getBytes(StandardCharsets.UTF_8);
    assertThat(agrees(json)).isTrue();
    assertThat(ByteTrees.object(json).get("f:metadata").propertyNames())
        .containsExactly("k:{\"uid\":\"u-1\"}");
    assertThat(agrees(json)).as("read again from the remembered keys").isTrue();
  }

  @Test
  void keysAreSharedBetweenTrees() {
    byte[] json = "{\"metadata\":{\"name\":\"a\"}}".getBytes(StandardCharsets.UTF_8);
    String first = ByteTrees.object(json).propertyNames().iterator().next();
    String second = ByteTrees.object(json).propertyNames().iterator().next();
    assertThat(second).isSameAs(first).isEqualTo("metadata");
  }

  private static final String[] KEYS = {
    "a", "b", "name", "metadata", "", "k:{\\\"uid\\\"}", "x y", "a\\u0041", "bad\\q", "k:{\"raw\"}"
  };

  private static final String[] NUMBERS = {
    "0",
    "-1",
    "7",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "999999999",
    "1000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "123456789012345678",
    "-123456789012345678",
    "1234567890123456789",
    "1.0",
    "1e2",
    "-0",
    "00",
    "-",
    "1.",
    "+1",
    "0x1"
  };

  private static final String[] STRINGS = {
    "",
    "x",
    "a\\\"b",
    "\\\\",
    "\\/",
    "\\b\\f\\n\\r\\t",
    "\\u0041\\u00e9\\uD83D\\uDE00",
    "\\u12",
    "\\uZZZZ",
    "\\q",
    "\u00e9",
    "tab\there",
    "\u007f",
    "{\\\"k\\\":1}"
  };

  private static void object(Random rnd, StringBuilder sb, int depth) {
    sb.append('{');
    int n = rnd.nextInt(depth > 3 ? 2 : 5);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(',');
      }
      space(rnd, sb);
      String key = rnd.nextInt(3) == 0 ? KEYS[rnd.nextInt(KEYS.length)] : "k" + i;
      sb.append('"').append(key).append('"');
      space(rnd, sb);
      sb.append(':');
      space(rnd, sb);
      value(rnd, sb, depth);
      space(rnd, sb);
    }
    if (rnd.nextInt(100) == 0) {
      sb.append(',');
    }
    sb.append('}');
  }

  private static void value(Random rnd, StringBuilder sb, int depth) {
    switch (rnd.nextInt(depth > 3 ? 4 : 6)) {
      case 0 -> sb.append(NUMBERS[rnd.nextInt(NUMBERS.length)]);
      case 1 -> sb.append('"').append(STRINGS[rnd.nextInt(STRINGS.length)]).append('"');
      case 2 -> sb.append(List.of("true", "false", "null", "nul", "True").get(rnd.nextInt(5)));
      case 3 -> sb.append('"').append("v").append(rnd.nextInt(1000)).append('"');
      case 4 -> object(rnd, sb, depth + 1);
      default -> {
        sb.append('[');
        int n = rnd.nextInt(4);
        for (int i = 0; i < n; i++) {
          if (i > 0) {
            sb.append(',');
          }
          space(rnd, sb);
          value(rnd, sb, depth + 1);
        }
        sb.append(']');
      }
    }
  }

  private static void space(Random rnd, StringBuilder sb) {
    if (rnd.nextInt(4) == 0) {
      sb.append(List.of(" ", "\n", "\r\n\t", "  ").get(rnd.nextInt(4)));
    }
  }
}
