package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The FieldsV1 encoding of field sets and the prefix removal the field manager uses. */
class FieldSetTest {
  private static final String POD_FIELDS =
      """
      {"f:metadata":{"f:labels":{".":{},"f:app":{}},"f:ownerReferences":{".":{},
       "k:{\\"uid\\":\\"u-1\\"}":{}}},
       "f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:image":{},"f:name":{},
        "f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},
         "f:containerPort":{}}}},"k:{\\"name\\":\\"b\\"}":{".":{},"f:name":{}}},
        "f:finalizers":{"v:\\"x\\"":{},"v:\\"y\\"":{}},"f:restartPolicy":{}},
       "f:status":{"f:conditions":{"i:0":{}}}}
      """;

  @Test
  void encodesWhatItDecodes() {
    JsonNode fields = Json.MAPPER.readTree(POD_FIELDS);
    assertThat(FieldSet.decode(fields).encode()).isEqualTo(fields);
    assertThat(Json.write(FieldSet.decode(fields).encode()))
        .isEqualTo(Json.write(Json.MAPPER.readTree(POD_FIELDS)));
  }

  @Test
  void decodesAnEncodingOutOfOrderOrWithRepeatsToTheSameSet() {
    FieldSet inOrder = FieldSet.decode(Json.MAPPER.readTree(POD_FIELDS));
    String reordered =
        """
        {"f:status":{"f:conditions":{"i:0":{}}},
         "f:spec":{"f:restartPolicy":{},"f:finalizers":{"v:\\"y\\"":{},"v:\\"x\\"":{}},
          "f:containers":{"k:{\\"name\\":\\"b\\"}":{"f:name":{},".":{}},
           "k:{\\"name\\":\\"a\\"}":{"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{
            "f:containerPort":{},".":{}},".":{}},"f:name":{},"f:image":{},".":{}}}},
         "f:metadata":{"f:ownerReferences":{"k:{\\"uid\\":\\"u-1\\"}":{},".":{}},
          "f:labels":{"f:app":{},".":{},".":{}}}}
        """;
    FieldSet s = FieldSet.decode(Json.MAPPER.readTree(reordered));
    assertThat(s).isEqualTo(inOrder);
    assertThat(s.paths()).hasSize(inOrder.paths().size());
    assertThat(new ArrayList<>(s.paths())).isSorted();
  }

  @Test
  void decodingItsOwnEncodingGivesTheEncodedSetAsTheWalkBuildsIt() {
    java.util.Random random = new java.util.Random(7);
    List<FieldSet> sets = new ArrayList<>();
    sets.add(FieldSet.decode(Json.MAPPER.readTree(POD_FIELDS)));
    sets.add(new FieldSet());
    for (int i = 0; i < 200; i++) {
      FieldSet s = new FieldSet();
      for (int n = random.nextInt(12); n > 0; n--) {
        String[] names = new String[1 + random.nextInt(4)];
        for (int k = 0; k < names.length; k++) {
          names[k] = "n" + random.nextInt(4);
        }
        s.add(path(names));
      }
      sets.add(s);
    }
    for (FieldSet s : sets) {
      var encoded = s.encode();
      FieldSet walked = FieldSet.decodeWalk(Json.MAPPER.readTree(Json.write(encoded)));
      FieldSet shared = FieldSet.decode(encoded);
      assertThat(shared).isSameAs(s);
      assertThat(new ArrayList<>(shared.paths())).isEqualTo(new ArrayList<>(walked.paths()));
      // a copy (as a write that changes the stored tree makes) is walked again
      FieldSet copied = FieldSet.decode(encoded.deepCopy());
      assertThat(copied).isNotSameAs(s).isEqualTo(walked);
    }
  }

  @Test
  void encodesOwnedParentsWithADotFirstAndChildrenSorted() {
    FieldSet s = new FieldSet();
    s.add(path("spec", "b"));
    s.add(path("spec", "a", "x"));
    s.add(path("spec"));
    s.add(path("metadata", "name"));
    assertThat(Json.write(s.encode()))
        .isEqualTo(
            "{\"f:metadata\":{\"f:name\":{}},\"f:spec\":{\".\":{},\"f:a\":{\"f:x\":{}},\"f:b\":{}}}");
    assertThat(Json.write(new FieldSet().encode())).isEqualTo("{}");
  }

  @Test
  void withoutPrefixDropsThePrefixAndWhatIsUnderIt() {
    FieldSet s = FieldSet.decode(Json.MAPPER.readTree(POD_FIELDS));
    s.add(path("spec"));
    s.add(path("specs"));
    FieldPath spec = path("spec");
    FieldSet expected = s.filter(p -> !p.startsWith(spec));
    assertThat(s.withoutPrefix(spec)).isEqualTo(expected);
    assertThat(expected.paths()).contains(path("specs"), path("metadata", "labels"));
    assertThat(s.withoutPrefix(path("nothing"))).isEqualTo(s);
  }

  private static FieldPath path(String... names) {
    List<FieldPath.Element> l = new ArrayList<>();
    for (String n : names) {
      l.add(new FieldPath.Field(n));
    }
    return new FieldPath(l);
  }
}
