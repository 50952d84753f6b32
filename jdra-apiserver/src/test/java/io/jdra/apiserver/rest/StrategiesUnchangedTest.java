package io.jdra.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/** {@link Strategies#unchanged}: equal apart from resourceVersion and managedFields. */
class StrategiesUnchangedTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "identical | {'metadata':{'name':'a'},'spec':{'x':1}} | true",
        "other resourceVersion | {'metadata':{'name':'a','resourceVersion':'9'},'spec':{'x':1}} | true",
        "other managedFields | {'metadata':{'name':'a','managedFields':[]},'spec':{'x':1}} | true",
        "number written differently | {'metadata':{'name':'a'},'spec':{'x':1.0}} | true",
        "spec changed | {'metadata':{'name':'a'},'spec':{'x':2}} | false",
        "field added | {'metadata':{'name':'a'},'spec':{'x':1},'status':{}} | false",
        "field removed | {'metadata':{'name':'a'}} | false",
        "label added | {'metadata':{'name':'a','labels':{'l':'v'}},'spec':{'x':1}} | false",
        "metadata missing | {'spec':{'x':1}} | false",
      })
  void comparesAllButVersionAndManagedFields(String name, String next, boolean unchanged) {
    ObjectNode old =
        parse(
            "{'metadata':{'name':'a','resourceVersion':'3','managedFields':[{}]},'spec':{'x':1}}");
    assertThat(Strategies.unchanged(parse(next), old)).isEqualTo(unchanged);
    assertThat(Strategies.unchanged(old, parse(next))).isEqualTo(unchanged);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no metadata on either | {'spec':{}} | {'spec':{}} | true",
        "only ignored metadata | {'metadata':{'resourceVersion':'1'}} | {} | true",
      })
  void missingMetadataIsEmpty(String name, String a, String b, boolean unchanged) {
    assertThat(Strategies.unchanged(parse(a), parse(b))).isEqualTo(unchanged);
  }

  private static ObjectNode parse(String json) {
    return Json.parseObject(
        json.replace('\'', '"').getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
