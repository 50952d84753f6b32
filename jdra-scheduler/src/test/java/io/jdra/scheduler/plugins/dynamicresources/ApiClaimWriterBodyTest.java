package io.jdra.scheduler.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.runtime.client.Clients;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The status write's body after a finalizer write: the answer's JSON text with the new status put
 * in is what writing the answer's tree with the status put in gave (the body sent before), byte for
 * byte for the compact JSON the API server answers, as the same JSON for any other.
 */
class ApiClaimWriterBodyTest {
  /** As the API server answers a finalizer write: managedFields, unknown fields, a status. */
  static final String STORED_WITH_STATUS =
      """
      {"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1",
       "metadata":{"name":"c","namespace":"ns","uid":"u1","resourceVersion":"42",
         "finalizers":["resource.kubernetes.io/delete-protection"],
         "labels":{"b":"2","a":"1"},"x-unknown":{"n":[1,2.5,null,true]},
         "managedFields":[{"manager":"m","operation":"Update","apiVersion":"v1",
           "time":"2026-11-27T12:00:00Z","fieldsType":"FieldsV1",
           "fieldsV1":{"f:metadata":{"f:finalizers":{}}}}]},
       "spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu",
         "count":2,"selectors":[{"cel":{"expression":"device.driver == \\"d\\""}}]}}]}},
       "status":{"reservedFor":[{"resource":"pods","name":"old","uid":"o"}],"zz":1},
       "zunknown":"last"}
      """;

  /** A claim never written with a status: the new status goes last. */
  static final String STORED_WITHOUT_STATUS =
      """
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
       "metadata":{"name":"c","namespace":"ns","resourceVersion":"7","finalizers":["f"]},
       "spec":{"devices":{"requests":[]}},"extra":[{"a":{}}]}
      """;

  /** An allocation with a node selector, device statuses, unknown fields at several levels. */
  static final String STATUS =
      """
      {"allocation":{"devices":{"results":[{"request":"r","driver":"d","pool":"p",
          "device":"dev-1","adminAccess":null,"tolerations":[],"x":"y"}],
        "config":[]},"nodeSelector":{"nodeSelectorTerms":[{"matchFields":[
          {"key":"metadata.name","operator":"In","values":["node-1"]}]}]},
        "allocationTimestamp":"2026-11-27T12:00:01Z","unknownInAllocation":{"k":[1]}},
       "reservedFor":[{"resource":"pods","name":"old","uid":"o"},
         {"resource":"pods","name":"p","uid":"u2"}],
       "devices":[{"driver":"d","pool":"p","device":"dev-1","conditions":[],
         "data":{"any":{"json":true}},"networkData":{"ips":["10.0.0.1/24"]}}],
       "statusUnknown":"s"}
      """;

  @Test
  void theAnswersTextWithTheStatusIsWhatWritingItsTreeGave() {
    for (KubernetesSerialization ser :
        List.of(Clients.serialization(), new KubernetesSerialization())) {
      ResourceClaimStatus status = ser.unmarshal(STATUS, ResourceClaimStatus.class);
      ResourceClaimStatus empty = new ResourceClaimStatus();
      for (String stored : List.of(STORED_WITH_STATUS, STORED_WITHOUT_STATUS)) {
        String compact = ser.asJson(ser.unmarshal(stored, ObjectNode.class));
        for (ResourceClaimStatus st : List.of(status, empty)) {
          String before = treeBody(ser, stored, st);
          assertThat(ApiClaimWriter.withStatus(compact, ser.asJson(st))).isEqualTo(before);
          String spaced = ApiClaimWriter.withStatus(stored, ser.asJson(st));
          assertThat(ser.asJson(ser.unmarshal(spaced, ObjectNode.class))).isEqualTo(before);
        }
      }
    }
  }

  /**
   * What bindOnce sent before: the answer decoded into a tree, its fields and the status put in a
   * map (the status in the stored one's place, else last), the map written in one pass.
   */
  private static String treeBody(
      KubernetesSerialization ser, String stored, ResourceClaimStatus st) {
    ObjectNode tree = ser.unmarshal(stored, ObjectNode.class);
    Map<String, Object> body = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : tree.properties()) {
      body.put(field.getKey(), field.getValue());
    }
    body.put("status", st);
    return ser.asJson(body);
  }
}
