package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link JsonMember#with} against putting the member into the object's tree and writing it: the
 * same text for compact objects, the same JSON (members in the same order) for objects with white
 * space; random objects whose strings hold braces, quotes, escapes and names like the member's.
 */
class JsonMemberTest {
  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final String[] NAMES = {"status", "spec", "metadata", "a", "Status", "k:{\"s\"}"};
  private static final String[] STRINGS = {
    "", "status", "{", "}", "[", "]", ",", ":", "\"", "\\", "\"status\":{}", "é€😀", "\u0001"
  };

  @Test
  void isWhatPuttingItIntoTheTreeWrites() {
    Random random = new Random(7);
    for (int i = 0; i < 3_000; i++) {
      ObjectNode object = object(random, 0);
      String value = JSON.writeValueAsString(value(random, 1));
      ObjectNode put = object.deepCopy();
      put.set("status", JSON.readTree(value));
      String expected = JSON.writeValueAsString(put);

      String compact = JSON.writeValueAsString(object);
      assertThat(JsonMember.with(compact, "status", value)).as(compact).isEqualTo(expected);
      String pretty = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(object);
      String fromPretty = JsonMember.with(pretty, "status", value);
      assertThat(JSON.writeValueAsString(JSON.readTree(fromPretty))).as(pretty).isEqualTo(expected);
    }
  }

  @Test
  void placesTheMemberWhereItWasOrLast() {
    assertThat(JsonMember.with("{}", "status", "1")).isEqualTo("{\"status\":1}");
    assertThat(JsonMember.with(" { } ", "status", "1")).isEqualTo(" { \"status\":1} ");
    assertThat(JsonMember.with("{\"status\":{\"x\":[]}}", "status", "null"))
        .isEqualTo("{\"status\":null}");
    assertThat(JsonMember.with("{\"a\":1,\"status\":\"s\",\"b\":2}", "status", "[]"))
        .isEqualTo("{\"a\":1,\"status\":[],\"b\":2}");
    assertThat(JsonMember.with("{\"a\":{\"status\":1}}", "status", "2"))
        .isEqualTo("{\"a\":{\"status\":1},\"status\":2}");
  }

  @Test
  void failsOnWhatIsNoObjectOrHasTheMemberTwice() {
    assertThatThrownBy(() -> JsonMember.with("[]", "status", "1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> JsonMember.with("{\"a\":", "status", "1"))
        .isInstanceOf(JacksonException.class);
    assertThatThrownBy(() -> JsonMember.with("{\"status\":1,\"status\":2}", "status", "1"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static ObjectNode object(Random random, int depth) {
    ObjectNode o = JSON.createObjectNode();
    int n = random.nextInt(depth == 0 ? 6 : 4);
    for (int i = 0; i < n; i++) {
      o.set(NAMES[random.nextInt(NAMES.length)], value(random, depth + 1));
    }
    return o;
  }

  private static JsonNode value(Random random, int depth) {
    int kind = random.nextInt(depth > 3 ? 5 : 7);
    return switch (kind) {
      case 0 -> JSON.getNodeFactory().nullNode();
      case 1 -> JSON.getNodeFactory().booleanNode(random.nextBoolean());
      case 2 -> JSON.getNodeFactory().numberNode(random.nextInt(2000) - 1000);
      case 3 -> JSON.getNodeFactory().numberNode(random.nextDouble() * 1e6);
      case 4 -> JSON.getNodeFactory().stringNode(STRINGS[random.nextInt(STRINGS.length)]);
      case 5 -> {
        var a = JSON.createArrayNode();
        for (int i = random.nextInt(4); i > 0; i--) {
          a.add(value(random, depth + 1));
        }
        yield a;
      }
      default -> object(random, depth);
    };
  }
}
