package io.jdra.apiserver.admission;

import static io.jdra.apiserver.admission.TreeReads.list;
import static io.jdra.apiserver.admission.TreeReads.object;
import static io.jdra.apiserver.admission.TreeReads.read;
import static io.jdra.apiserver.admission.TreeReads.string;
import static io.jdra.apiserver.admission.TreeReads.unread;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A claim status as a scheduler writes it when it allocates (results naming request, driver, pool
 * and device, a node selector of terms and requirements, a timestamp, the reserving pods) read into
 * the fabric8 model by hand: each status write of a scheduled pod decodes one, and Jackson's bean
 * machinery (a property lookup and a method-handle setter call per field, a deserializer per nested
 * class) was most of a claim status write's admission. Only that shape is read: any other field, a
 * value of another JSON type (null included) or another node class gives null, and the caller
 * decodes with Jackson, so the model is the one Jackson would build (the fields set with the same
 * values, the rest left at the model's defaults; {@code ClaimStatusTreesTest} compares the two on
 * the shape and on variants of each of its values).
 */
final class ClaimStatusTrees {
  private ClaimStatusTrees() {}

  /** The status, or null when the tree is not of the shape read here. */
  static ResourceClaimStatus status(JsonNode tree) {
    return tree instanceof ObjectNode o ? read(o, ClaimStatusTrees::status) : null;
  }

  private static ResourceClaimStatus status(ObjectNode o) {
    ResourceClaimStatus s = new ResourceClaimStatus();
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "allocation" -> s.setAllocation(allocation(object(v)));
        case "reservedFor" -> s.setReservedFor(list(v, ClaimStatusTrees::consumer));
        default -> throw unread();
      }
    }
    return s;
  }

  private static AllocationResult allocation(ObjectNode o) {
    AllocationResult a = new AllocationResult();
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "devices" -> a.setDevices(devices(object(v)));
        case "nodeSelector" -> a.setNodeSelector(nodeSelector(object(v)));
        case "allocationTimestamp" -> a.setAllocationTimestamp(string(v));
        default -> throw unread();
      }
    }
    return a;
  }

  private static DeviceAllocationResult devices(ObjectNode o) {
    DeviceAllocationResult d = new DeviceAllocationResult();
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      if (!e.getKey().equals("results")) {
        throw unread();
      }
      d.setResults(list(e.getValue(), ClaimStatusTrees::result));
    }
    return d;
  }

  private static DeviceRequestAllocationResult result(JsonNode n) {
    DeviceRequestAllocationResult r = new DeviceRequestAllocationResult();
    for (Map.Entry<String, JsonNode> e : object(n).properties()) {
      String v = string(e.getValue());
      switch (e.getKey()) {
        case "request" -> r.setRequest(v);
        case "driver" -> r.setDriver(v);
        case "pool" -> r.setPool(v);
        case "device" -> r.setDevice(v);
        default -> throw unread();
      }
    }
    return r;
  }

  private static NodeSelector nodeSelector(ObjectNode o) {
    NodeSelector s = new NodeSelector();
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      if (!e.getKey().equals("nodeSelectorTerms")) {
        throw unread();
      }
      s.setNodeSelectorTerms(list(e.getValue(), ClaimStatusTrees::term));
    }
    return s;
  }

  private static NodeSelectorTerm term(JsonNode n) {
    NodeSelectorTerm t = new NodeSelectorTerm();
    for (Map.Entry<String, JsonNode> e : object(n).properties()) {
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "matchFields" -> t.setMatchFields(list(v, ClaimStatusTrees::requirement));
        case "matchExpressions" -> t.setMatchExpressions(list(v, ClaimStatusTrees::requirement));
        default -> throw unread();
      }
    }
    return t;
  }

  private static NodeSelectorRequirement requirement(JsonNode n) {
    NodeSelectorRequirement r = new NodeSelectorRequirement();
    for (Map.Entry<String, JsonNode> e : object(n).properties()) {
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "key" -> r.setKey(string(v));
        case "operator" -> r.setOperator(string(v));
        case "values" -> r.setValues(list(v, TreeReads::string));
        default -> throw unread();
      }
    }
    return r;
  }

  private static ResourceClaimConsumerReference consumer(JsonNode n) {
    ResourceClaimConsumerReference c = new ResourceClaimConsumerReference();
    for (Map.Entry<String, JsonNode> e : object(n).properties()) {
      String v = string(e.getValue());
      switch (e.getKey()) {
        case "apiGroup" -> c.setApiGroup(v);
        case "resource" -> c.setResource(v);
        case "name" -> c.setName(v);
        case "uid" -> c.setUid(v);
        default -> throw unread();
      }
    }
    return c;
  }
}
