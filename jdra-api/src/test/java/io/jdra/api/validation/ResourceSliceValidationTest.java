package io.jdra.api.validation;

import static io.jdra.api.validation.Messages.C_IDENTIFIER;
import static io.jdra.api.validation.Messages.DNS_LABEL;
import static io.jdra.api.validation.Messages.DNS_SUBDOMAIN;
import static io.jdra.api.validation.Messages.LABEL_KEY_NAME;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumptionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ResourceSliceValidationTest {
  private static final String D0 = "spec.devices[0]";
  private static final String POLICY = D0 + ".capacity[memory].requestPolicy";
  private static final String NODE_SELECTION =
      "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";
  private static final String PER_DEVICE =
      "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when"
          + " `perDeviceNodeSelection` is set to true in the ResourceSlice spec";

  static ResourceSliceSpec spec(ResourceSlice s) {
    return s.getSpec();
  }

  static Device dev(ResourceSlice s) {
    return s.getSpec().getDevices().get(0);
  }

  static Device device(String name) {
    return new DeviceBuilder().withName(name).build();
  }

  static DeviceAttribute str(String v) {
    return new DeviceAttributeBuilder().withString(v).build();
  }

  static Quantity q(String s) {
    return new Quantity(s);
  }

  static Map<String, Counter> counters(String... names) {
    Map<String, Counter> m = new LinkedHashMap<>();
    for (String n : names) {
      m.put(n, new Counter(q("1Gi")));
    }
    return m;
  }

  static DeviceCounterConsumption consumes(String set, String... counters) {
    return new DeviceCounterConsumptionBuilder()
        .withCounterSet(set)
        .withCounters(counters(counters))
        .build();
  }

  static CounterSet counterSet(String name, String... counters) {
    return new CounterSetBuilder().withName(name).withCounters(counters(counters)).build();
  }

  static DeviceTaint taint(String key, String effect) {
    return new DeviceTaintBuilder().withKey(key).withEffect(effect).build();
  }

  static NodeSelectorTerm term(String key) {
    return new NodeSelectorTermBuilder()
        .addNewMatchExpression()
        .withKey(key)
        .withOperator("In")
        .withValues("x")
        .endMatchExpression()
        .build();
  }

  /** Makes device 0 multi-allocatable with the given policy on its 40Gi "memory" capacity. */
  static Consumer<ResourceSlice> policy(CapacityRequestPolicy policy) {
    return s -> {
      dev(s).setAllowMultipleAllocations(true);
      dev(s).getCapacity().put("memory", new DeviceCapacity(policy, q("40Gi")));
    };
  }

  static CapacityRequestPolicyBuilder range(String def, String min, String max, String step) {
    CapacityRequestPolicyBuilder b = new CapacityRequestPolicyBuilder();
    if (def != null) {
      b.withDefault(q(def));
    }
    var r = b.withNewValidRange();
    if (min != null) {
      r.withMin(q(min));
    }
    if (max != null) {
      r.withMax(q(max));
    }
    if (step != null) {
      r.withStep(q(step));
    }
    return r.endValidRange();
  }

  static CapacityRequestPolicyBuilder values(String def, String... values) {
    CapacityRequestPolicyBuilder b = new CapacityRequestPolicyBuilder();
    if (def != null) {
      b.withDefault(q(def));
    }
    for (String v : values) {
      b.addToValidValues(q(v));
    }
    return b;
  }

  static Stream<Case<ResourceSlice>> createCases() {
    return Stream.of(
        Case.of("valid", s -> {}),
        // driver and pool
        Case.of(
            "missing driver",
            s -> spec(s).setDriver(""),
            "spec.driver: Required value",
            "spec.driver: Invalid value: \"\": " + DNS_SUBDOMAIN),
        Case.of(
            "driver too long",
            s -> spec(s).setDriver("a".repeat(64)),
            "spec.driver: Too long: may not be more than 63 bytes"),
        Case.of(
            "bad driver",
            s -> spec(s).setDriver("gpu_example.com"),
            "spec.driver: Invalid value: \"gpu_example.com\": " + DNS_SUBDOMAIN),
        Case.of(
            "missing pool", s -> spec(s).getPool().setName(""), "spec.pool.name: Required value"),
        Case.of("pool with slashes", s -> spec(s).getPool().setName("a/b.c/d")),
        Case.of(
            "bad pool part",
            s -> spec(s).getPool().setName("a/B"),
            "spec.pool.name: Invalid value: \"B\": " + DNS_SUBDOMAIN),
        Case.of(
            "pool too long",
            s -> spec(s).getPool().setName("a".repeat(254)),
            "spec.pool.name: Too long: may not be more than 253 bytes",
            "spec.pool.name: Invalid value: \""
                + "a".repeat(254)
                + "\": must be no more than 253 characters"),
        Case.of(
            "zero slice count",
            s -> spec(s).getPool().setResourceSliceCount(0L),
            "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero"),
        Case.of(
            "negative generation",
            s -> spec(s).getPool().setGeneration(-1L),
            "spec.pool.generation: Invalid value: -1: must be greater than or equal to zero"),
        // node selection
        Case.of(
            "no node selection",
            s -> spec(s).setNodeName(null),
            "spec: Required value: " + NODE_SELECTION),
        Case.of(
            "empty node name",
            s -> spec(s).setNodeName(""),
            "spec.nodeName: Invalid value: \"\": must be either unset or set to a non-empty string",
            "spec: Required value: " + NODE_SELECTION),
        Case.of(
            "bad node name",
            s -> spec(s).setNodeName("Node_1"),
            "spec.nodeName: Invalid value: \"Node_1\": " + DNS_SUBDOMAIN),
        Case.of(
            "node name and all nodes",
            s -> spec(s).setAllNodes(true),
            "spec: Invalid value: \"{`nodeName`, `allNodes`}\": "
                + NODE_SELECTION
                + ", but multiple fields are set"),
        Case.of(
            "all nodes false",
            s -> {
              spec(s).setNodeName(null);
              spec(s).setAllNodes(false);
            },
            "spec.allNodes: Invalid value: false: must be either unset or set to true",
            "spec: Required value: " + NODE_SELECTION),
        Case.of(
            "all nodes",
            s -> {
              spec(s).setNodeName(null);
              spec(s).setAllNodes(true);
            }),
        Case.of(
            "node selector",
            s -> {
              spec(s).setNodeName(null);
              spec(s)
                  .setNodeSelector(
                      new NodeSelectorBuilder().withNodeSelectorTerms(term("a")).build());
            }),
        Case.of(
            "node selector with two terms",
            s -> {
              spec(s).setNodeName(null);
              spec(s)
                  .setNodeSelector(
                      new NodeSelectorBuilder()
                          .withNodeSelectorTerms(term("a"), term("b"))
                          .build());
            },
            "spec.nodeSelector.nodeSelectorTerms: Invalid value:"
                + " [{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\",\"values\":[\"x\"]}]},"
                + "{\"matchExpressions\":[{\"key\":\"b\",\"operator\":\"In\",\"values\":[\"x\"]}]}]:"
                + " must have exactly one node selector term"),
        Case.of(
            "node selector without terms",
            s -> {
              spec(s).setNodeName(null);
              spec(s).setNodeSelector(new NodeSelectorBuilder().build());
            },
            "spec.nodeSelector.nodeSelectorTerms: Required value: must have at least one node"
                + " selector term",
            "spec.nodeSelector.nodeSelectorTerms: Invalid value: null: must have exactly one node"
                + " selector term"),
        Case.of(
            "node selector bad requirement",
            s -> {
              spec(s).setNodeName(null);
              NodeSelectorTerm t = term("a");
              t.getMatchExpressions().get(0).setOperator("Foo");
              t.setMatchFields(
                  List.of(
                      new io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder()
                          .withKey("spec.x")
                          .withOperator("In")
                          .withValues("a", "b")
                          .build()));
              spec(s).setNodeSelector(new NodeSelectorBuilder().withNodeSelectorTerms(t).build());
            },
            "spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value:"
                + " \"Foo\": not a valid selector operator",
            "spec.nodeSelector.nodeSelectorTerms[0].matchFields[0].values: Required value: must be"
                + " only one value when `operator` is 'In' or 'NotIn' for node field selector",
            "spec.nodeSelector.nodeSelectorTerms[0].matchFields[0].key: Invalid value: \"spec.x\":"
                + " not a valid field selector key"),
        Case.of(
            "per-device node selection",
            s -> {
              spec(s).setNodeName(null);
              spec(s).setPerDeviceNodeSelection(true);
              dev(s).setNodeName("node-1");
            }),
        Case.of(
            "per-device node selection without device node",
            s -> {
              spec(s).setNodeName(null);
              spec(s).setPerDeviceNodeSelection(true);
            },
            D0 + ": Required value: " + PER_DEVICE),
        Case.of(
            "per-device node selection with two device nodes",
            s -> {
              spec(s).setNodeName(null);
              spec(s).setPerDeviceNodeSelection(true);
              dev(s).setNodeName("");
              dev(s).setAllNodes(true);
              dev(s)
                  .setNodeSelector(
                      new NodeSelectorBuilder().withNodeSelectorTerms(term("a")).build());
            },
            D0 + ".nodeName: Invalid value: \"\": must not be empty",
            D0 + ": Invalid value: \"{`nodeSelector`, `allNodes`}\": " + PER_DEVICE),
        Case.of(
            "device node without per-device node selection",
            s -> dev(s).setNodeName("node-1"),
            D0
                + ": Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` can only be set"
                + " if `perDeviceNodeSelection` is set to true in the ResourceSlice spec"),
        Case.of(
            "per-device node selection false",
            s -> spec(s).setPerDeviceNodeSelection(false),
            "spec.perDeviceNodeSelection: Invalid value: false: must be either unset or set to true"),
        // devices
        Case.of(
            "shared counters and devices",
            s -> spec(s).setSharedCounters(List.of(counterSet("set", "mem"))),
            "spec: Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed"),
        Case.of("128 devices", s -> spec(s).setDevices(Fixtures.times(128, i -> device("d" + i)))),
        Case.of(
            "129 devices",
            s -> spec(s).setDevices(Fixtures.times(129, i -> device("d" + i))),
            "spec.devices: Too many: 129: must have at most 128 items"),
        Case.of(
            "64 devices with taints",
            s -> {
              spec(s).setDevices(Fixtures.times(64, i -> device("d" + i)));
              dev(s).setTaints(List.of(taint("k", "NoSchedule")));
            }),
        Case.of(
            "65 devices with taints",
            s -> {
              spec(s).setDevices(Fixtures.times(65, i -> device("d" + i)));
              dev(s).setTaints(List.of(taint("k", "NoSchedule")));
            },
            "spec.devices: Too many: 65: must have at most 64 items"),
        Case.of(
            "65 devices consuming counters",
            s -> {
              spec(s).setDevices(Fixtures.times(65, i -> device("d" + i)));
              dev(s).setConsumesCounters(List.of(consumes("set", "mem")));
            },
            "spec.devices: Too many: 65: must have at most 64 items"),
        Case.of(
            "65 devices with list attributes",
            s -> {
              spec(s).setDevices(Fixtures.times(65, i -> device("d" + i)));
              dev(s)
                  .setAttributes(
                      Map.of("numa", new DeviceAttributeBuilder().withInts(0L, 1L).build()));
            },
            "spec.devices: Too many: 65: must have at most 64 items"),
        Case.of(
            "bad device name",
            s -> dev(s).setName("Dev"),
            D0 + ".name: Invalid value: \"Dev\": " + DNS_LABEL),
        Case.of(
            "duplicate device",
            s -> spec(s).setDevices(List.of(device("a"), device("a"))),
            "spec.devices[1]: Duplicate value: \"a\""),
        // attributes and capacity
        Case.of(
            "32 attributes and capacities",
            s -> {
              Map<String, DeviceAttribute> a = new LinkedHashMap<>();
              for (int i = 0; i < 31; i++) {
                a.put("a" + i, str("x"));
              }
              dev(s).setAttributes(a);
            }),
        Case.of(
            "33 attributes and capacities",
            s -> {
              Map<String, DeviceAttribute> a = new LinkedHashMap<>();
              for (int i = 0; i < 32; i++) {
                a.put("a" + i, str("x"));
              }
              dev(s).setAttributes(a);
            },
            D0
                + ": Invalid value: 33: the total number of attributes and capacities must not exceed 32"),
        Case.of(
            "49 attribute values",
            s -> {
              Map<String, DeviceAttribute> a = new LinkedHashMap<>();
              for (int i = 0; i < 7; i++) {
                a.put(
                    "a" + i,
                    new DeviceAttributeBuilder().withInts(1L, 2L, 3L, 4L, 5L, 6L, 7L).build());
              }
              dev(s).setAttributes(a);
            },
            D0 + ": Invalid value: 49: the total number of attribute values must not exceed 48"),
        Case.of(
            "attribute without value",
            s -> dev(s).getAttributes().put("model", new DeviceAttribute()),
            D0 + ".attributes[model]: Invalid value: \"\": exactly one value must be specified"),
        Case.of(
            "attribute with two values",
            s ->
                dev(s)
                    .getAttributes()
                    .put("model", new DeviceAttributeBuilder().withInt(1L).withString("a").build()),
            D0
                + ".attributes[model]: Invalid value: {\"int\":1,\"string\":\"a\"}: exactly one value"
                + " must be specified"),
        Case.of(
            "string attribute of 64 bytes",
            s -> dev(s).getAttributes().put("model", str("x".repeat(64)))),
        Case.of(
            "string attribute too long",
            s -> dev(s).getAttributes().put("model", str("x".repeat(65))),
            D0 + ".attributes[model].string: Too long: may not be more than 64 bytes"),
        Case.of(
            "version attributes",
            s -> {
              dev(s)
                  .getAttributes()
                  .put(
                      "v1", new DeviceAttributeBuilder().withVersion("1.2.3-rc.1+build.5").build());
              dev(s)
                  .getAttributes()
                  .put("v2", new DeviceAttributeBuilder().withVersions("1.0.0", "2.0.0").build());
            }),
        Case.of(
            "bad version",
            s ->
                dev(s)
                    .getAttributes()
                    .put("v", new DeviceAttributeBuilder().withVersion("1.0").build()),
            D0
                + ".attributes[v].version: Invalid value: \"1.0\": must be a string compatible with semver.org spec 2.0.0"),
        Case.of(
            "bad version in list",
            s ->
                dev(s)
                    .getAttributes()
                    .put("v", new DeviceAttributeBuilder().withVersions("1.0.0", "01.0.0").build()),
            D0
                + ".attributes[v].versions[1]: Invalid value: \"01.0.0\": must be a string compatible with semver.org spec 2.0.0"),
        Case.of(
            "string in list too long",
            s ->
                dev(s)
                    .getAttributes()
                    .put(
                        "s", new DeviceAttributeBuilder().withStrings("a", "x".repeat(65)).build()),
            D0 + ".attributes[s].strings[1]: Too long: may not be more than 64 bytes"),
        Case.of(
            "qualified attribute names",
            s -> {
              dev(s).getAttributes().put("GPU.example.com/model2", str("x"));
              dev(s).getAttributes().put("_x", str("x"));
            }),
        Case.of(
            "bad attribute name",
            s -> dev(s).getAttributes().put("1model", str("x")),
            D0 + ".attributes: Invalid value: \"1model\": " + C_IDENTIFIER),
        Case.of(
            "bad attribute domain",
            s -> dev(s).getAttributes().put("gpu_x.com/model", str("x")),
            D0 + ".attributes: Invalid value: \"gpu_x.com\": " + DNS_SUBDOMAIN),
        Case.of(
            "long attribute name is shortened in the path",
            s -> dev(s).getAttributes().put("a".repeat(100), new DeviceAttribute()),
            D0 + ".attributes: Too long: may not be more than 32 bytes",
            D0
                + ".attributes["
                + "a".repeat(47)
                + "..."
                + "a".repeat(46)
                + "]: Invalid value: \"\": exactly one value must be specified"),
        Case.of(
            "bad capacity name",
            s -> dev(s).getCapacity().put("mem/", new DeviceCapacity(null, q("1"))),
            D0 + ".capacity: Invalid value: \"\": the name must not be empty"),
        Case.of(
            "request policy needs multiple allocations",
            s ->
                dev(s)
                    .getCapacity()
                    .put("memory", new DeviceCapacity(values("1Gi", "1Gi").build(), q("40Gi"))),
            POLICY + ": Forbidden: allowMultipleAllocations must be true"),
        // request policies
        Case.of("valid values", policy(values("1Gi", "1Gi", "2Gi").build())),
        Case.of(
            "values and range",
            policy(range("1Gi", "1Gi", null, null).withValidValues(q("1Gi")).build()),
            POLICY
                + ": Forbidden: exactly one policy can be specified, cannot specify \"validValues\""
                + " and \"validRange\" at the same time"),
        Case.of(
            "values without default",
            policy(values(null, "1Gi").build()),
            POLICY + ".default: Required value: required when validValues is defined"),
        Case.of(
            "unsorted values",
            policy(values("1Gi", "2Gi", "1Gi").build()),
            POLICY
                + ".validValues[1]: Invalid value: \"1Gi\": values must be sorted in ascending order"),
        Case.of(
            "duplicate values",
            policy(values("1Gi", "1Gi", "1024Mi").build()),
            POLICY + ".validValues[1]: Duplicate value: \"1073741824\""),
        Case.of(
            "value above capacity",
            policy(values("50Gi", "50Gi").build()),
            POLICY
                + ".validValues[0]: Invalid value: \"50Gi\": option is larger than capacity value: 40Gi"),
        Case.of(
            "default not among values",
            policy(values("3Gi", "1Gi").build()),
            POLICY
                + ".validValues: Invalid value: \"3Gi\": default value is not valid according to the requestPolicy"),
        Case.of(
            "11 values",
            policy(values("1", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11").build()),
            POLICY + ".validValues: Too many: 11: must have at most 10 items",
            POLICY
                + ".validValues: Invalid value: \"1\": default value is not valid according to the requestPolicy"),
        Case.of("valid range", policy(range("2Gi", "1Gi", "10Gi", "1Gi").build())),
        Case.of(
            "range without default",
            policy(range(null, "1Gi", null, null).build()),
            POLICY + ".default: Required value: required when validRange is defined"),
        Case.of(
            "range without min",
            policy(range("1Gi", null, null, null).build()),
            POLICY + ".validRange.min: Required value: required when validRange is defined"),
        Case.of(
            "range min above capacity",
            policy(range("50Gi", "50Gi", null, null).build()),
            POLICY
                + ".validRange.min: Invalid value: \"50Gi\": min is larger than capacity value: 40Gi"),
        Case.of(
            "range default below min",
            policy(range("1Gi", "2Gi", null, null).build()),
            POLICY + ".validRange.default: Invalid value: \"1Gi\": default is less than min: 2Gi"),
        Case.of(
            "range max problems",
            policy(range("45Gi", "42Gi", "41Gi", null).build()),
            POLICY
                + ".validRange.min: Invalid value: \"42Gi\": min is larger than capacity value: 40Gi",
            POLICY + ".validRange.max: Invalid value: \"42Gi\": min is larger than max: 41Gi",
            POLICY
                + ".validRange.max: Invalid value: \"41Gi\": max is larger than capacity value: 40Gi",
            POLICY
                + ".validRange.default: Invalid value: \"45Gi\": default is more than max: 41Gi"),
        Case.of(
            "range default off step",
            policy(range("1536Mi", "1Gi", "10Gi", "1Gi").build()),
            POLICY
                + ".validRange.step: Invalid value: \"1536Mi\": value is not a multiple of a given step (1Gi) from (1Gi)"),
        Case.of(
            "range max off step",
            policy(range("1Gi", "1Gi", "1536Mi", "1Gi").build()),
            POLICY
                + ".validRange.step: Invalid value: \"1536Mi\": value is not a multiple of a given step (1Gi) from (1Gi)"),
        Case.of(
            "range zero step",
            policy(range("1Gi", "1Gi", null, "0").build()),
            POLICY + ".validRange.step: Invalid value: \"0\": must be greater than zero"),
        Case.of(
            "range step beyond capacity",
            policy(range("39Gi", "39Gi", null, "2Gi").build()),
            POLICY
                + ".validRange.step: Invalid value: \"2Gi\": one step 41Gi is larger than capacity value: 40Gi"),
        // taints
        Case.of("taint", s -> dev(s).setTaints(List.of(taint("example.com/k", "NoExecute")))),
        Case.of(
            "taint without key and effect",
            s -> dev(s).setTaints(List.of(new DeviceTaint())),
            D0 + ".taints[0].key: Invalid value: \"\": name part must be non-empty",
            D0 + ".taints[0].key: Invalid value: \"\": " + LABEL_KEY_NAME,
            D0 + ".taints[0].effect: Required value"),
        Case.of(
            "taint bad effect and value",
            s ->
                dev(s)
                    .setTaints(
                        List.of(
                            new DeviceTaintBuilder()
                                .withKey("k")
                                .withValue("-v")
                                .withEffect("PreferNoSchedule")
                                .build())),
            D0 + ".taints[0].value: Invalid value: \"-v\": " + Messages.LABEL_VALUE,
            D0
                + ".taints[0].effect: Unsupported value: \"PreferNoSchedule\": supported values: \"NoExecute\", \"NoSchedule\", \"None\""),
        Case.of(
            "17 taints",
            s -> dev(s).setTaints(Fixtures.times(17, i -> taint("k" + i, "None"))),
            D0 + ".taints: Too many: 17: must have at most 16 items"),
        // counters
        Case.of(
            "shared counters",
            s -> {
              spec(s).setDevices(List.of());
              spec(s).setSharedCounters(List.of(counterSet("gpu-0", "memory", "cores")));
            }),
        Case.of(
            "9 counter sets",
            s -> {
              spec(s).setDevices(List.of());
              spec(s).setSharedCounters(Fixtures.times(9, i -> counterSet("s" + i, "c")));
            },
            "spec.sharedCounters: Too many: 9: must have at most 8 items"),
        Case.of(
            "counter set problems",
            s -> {
              spec(s).setDevices(List.of());
              spec(s)
                  .setSharedCounters(
                      List.of(counterSet(""), counterSet("Set", "Mem"), counterSet("Set", "c")));
            },
            "spec.sharedCounters[0].name: Required value",
            "spec.sharedCounters[0].counters: Required value",
            "spec.sharedCounters[1].name: Invalid value: \"Set\": " + DNS_LABEL,
            "spec.sharedCounters[1].counters: Invalid value: \"Mem\": " + DNS_LABEL,
            "spec.sharedCounters[2].name: Invalid value: \"Set\": " + DNS_LABEL,
            "spec.sharedCounters[2]: Duplicate value: \"Set\""),
        Case.of(
            "33 counters in a set",
            s -> {
              spec(s).setDevices(List.of());
              spec(s)
                  .setSharedCounters(
                      List.of(
                          counterSet(
                              "s", Fixtures.times(33, i -> "c" + i).toArray(String[]::new))));
            },
            "spec.sharedCounters[0].counters: Too many: 33: must have at most 32 items"),
        Case.of(
            "consumed counters",
            s -> dev(s).setConsumesCounters(List.of(consumes("a", "mem"), consumes("b", "mem")))),
        Case.of(
            "3 consumed counter sets",
            s ->
                dev(s)
                    .setConsumesCounters(
                        List.of(consumes("a", "m"), consumes("b", "m"), consumes("c", "m"))),
            D0 + ".consumesCounters: Too many: 3: must have at most 2 items"),
        Case.of(
            "consumed counter problems",
            s -> dev(s).setConsumesCounters(List.of(consumes(""), consumes("", "Mem"))),
            D0 + ".consumesCounters[0].counterSet: Required value",
            D0 + ".consumesCounters[0].counters: Required value",
            D0 + ".consumesCounters[1].counterSet: Required value",
            D0 + ".consumesCounters[1].counters: Invalid value: \"Mem\": " + DNS_LABEL,
            D0 + ".consumesCounters[1]: Duplicate value: \"\""),
        // binding conditions
        Case.of(
            "binding conditions",
            s -> {
              dev(s).setBindingConditions(List.of("example.com/ready"));
              dev(s).setBindingFailureConditions(List.of("example.com/failed"));
            }),
        Case.of(
            "binding conditions without failure conditions",
            s -> dev(s).setBindingConditions(List.of("ready")),
            D0
                + ".bindingFailureConditions: Invalid value: null: bindingFailureConditions are required to use bindingConditions"),
        Case.of(
            "failure conditions without binding conditions",
            s -> dev(s).setBindingFailureConditions(List.of("failed")),
            D0
                + ".bindingConditions: Invalid value: null: bindingConditions are required to use bindingFailureConditions"),
        Case.of(
            "binding condition problems",
            s -> {
              dev(s).setBindingConditions(List.of("a", "a", "-b"));
              dev(s).setBindingFailureConditions(List.of("a"));
            },
            D0 + ".bindingConditions[2]: Invalid value: \"-b\": " + LABEL_KEY_NAME,
            D0 + ".bindingConditions[1]: Duplicate value: \"a\"",
            D0
                + ".bindingFailureConditions[0]: Invalid value: \"a\": bindingFailureConditions must not overlap with bindingConditions"),
        Case.of(
            "5 binding conditions",
            s -> {
              dev(s).setBindingConditions(List.of("a", "b", "c", "d", "e"));
              dev(s).setBindingFailureConditions(List.of("f"));
            },
            D0 + ".bindingConditions: Too many: 5: must have at most 4 items"),
        // metadata
        Case.of(
            "namespace is forbidden",
            s -> s.getMetadata().setNamespace("default"),
            "metadata.namespace: Forbidden: not allowed on this type"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("createCases")
  void create(Case<ResourceSlice> tc) {
    ResourceSlice slice = Fixtures.with(Fixtures.slice(), tc.change());
    assertThat(Fixtures.strings(Validation.validateResourceSlice(slice)))
        .containsExactlyElementsOf(tc.expected());
  }

  static Stream<Case<ResourceSlice>> updateCases() {
    return Stream.of(
        Case.of("unchanged", s -> {}),
        Case.of("generation bump", s -> spec(s).getPool().setGeneration(2L)),
        Case.of(
            "driver is immutable",
            s -> spec(s).setDriver("other.example.com"),
            "spec.driver: Invalid value: \"other.example.com\": field is immutable"),
        Case.of(
            "pool name is immutable",
            s -> spec(s).getPool().setName("other"),
            "spec.pool.name: Invalid value: \"other\": field is immutable"),
        Case.of(
            "node name is immutable",
            s -> spec(s).setNodeName("node-2"),
            "spec.nodeName: Invalid value: \"node-2\": field is immutable"),
        Case.of(
            "node name may not be removed",
            s -> {
              spec(s).setNodeName(null);
              spec(s).setAllNodes(true);
            },
            "spec.nodeName: Invalid value: null: field is immutable"),
        Case.of(
            "new taint with bad effect",
            s -> dev(s).setTaints(List.of(taint("k", "Bad"))),
            D0
                + ".taints[0].effect: Unsupported value: \"Bad\": supported values: \"NoExecute\", \"NoSchedule\", \"None\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updateCases")
  void update(Case<ResourceSlice> tc) {
    ResourceSlice old = Fixtures.slice();
    old.getMetadata().setResourceVersion("1");
    ResourceSlice slice = Fixtures.slice();
    slice.getMetadata().setResourceVersion("1");
    tc.change().accept(slice);
    assertThat(Fixtures.strings(Validation.validateResourceSliceUpdate(slice, old)))
        .containsExactlyElementsOf(tc.expected());
  }

  @org.junit.jupiter.api.Test
  void unchangedStoredTaintsAreNotRechecked() {
    ResourceSlice old = Fixtures.slice();
    old.getMetadata().setResourceVersion("1");
    dev(old).setTaints(List.of(taint("k", "Bad")));
    ResourceSlice slice = Fixtures.slice();
    slice.getMetadata().setResourceVersion("1");
    dev(slice).setTaints(List.of(taint("k", "Bad")));
    assertThat(Validation.validateResourceSliceUpdate(slice, old)).isEmpty();
  }
}
