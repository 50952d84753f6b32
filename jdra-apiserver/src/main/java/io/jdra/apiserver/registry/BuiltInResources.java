package io.jdra.apiserver.registry;

import io.jdra.apiserver.registry.ResourceType.Column;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The resources served by default, described as upstream's discovery and printers do. */
final class BuiltInResources {
  private static final List<String> V1 = List.of("v1");
  private static final List<String> RESOURCE_VERSIONS = List.of("v1", "v1beta2", "v1beta1");

  /** Core Events' field selectors, on the stored (core) form. */
  private static final String[] CORE_EVENT_FIELDS = {
    "involvedObject.kind", "involvedObject.kind",
    "involvedObject.namespace", "involvedObject.namespace",
    "involvedObject.name", "involvedObject.name",
    "involvedObject.uid", "involvedObject.uid",
    "involvedObject.apiVersion", "involvedObject.apiVersion",
    "involvedObject.resourceVersion", "involvedObject.resourceVersion",
    "involvedObject.fieldPath", "involvedObject.fieldPath",
    "reason", "reason",
    "reportingComponent", "reportingComponent",
    "source", "source.component",
    "type", "type"
  };

  /** events.k8s.io's field selectors, mapped onto the core form as upstream's label conversion. */
  private static final String[] EVENTS_GROUP_FIELDS = {
    "regarding.kind", "involvedObject.kind",
    "regarding.namespace", "involvedObject.namespace",
    "regarding.name", "involvedObject.name",
    "regarding.uid", "involvedObject.uid",
    "regarding.apiVersion", "involvedObject.apiVersion",
    "regarding.resourceVersion", "involvedObject.resourceVersion",
    "regarding.fieldPath", "involvedObject.fieldPath",
    "reason", "reason",
    "reportingController", "reportingComponent",
    "type", "type"
  };

  private BuiltInResources() {}

  /**
   * Upstream's event printer, for both groups (they share the stored form): LAST SEEN, TYPE,
   * REASON, OBJECT, MESSAGE, with SUBOBJECT, SOURCE, FIRST SEEN, COUNT and NAME in wide.
   */
  private static Column[] eventColumns() {
    return new Column[] {
      new Column("LAST SEEN", "string", 0, "", Printers::eventLastSeen, true),
      col("TYPE", "type"),
      col("REASON", "reason"),
      computed("OBJECT", Printers::eventObject),
      wide("SUBOBJECT", "involvedObject.fieldPath"),
      computedWide("SOURCE", Printers::eventSource),
      col("MESSAGE", "message"),
      new Column("FIRST SEEN", "string", 1, "", Printers::eventFirstSeen, true),
      new Column("COUNT", "integer", 1, "", Printers::eventCount),
      wide("NAME", "metadata.name")
    };
  }

  static List<ResourceType> all() {
    List<ResourceType> all = new ArrayList<>();
    all.add(
        type("", V1, "Namespace", "namespaces", List.of("ns"), false, Set.of("status", "finalize"))
            .columns(col("STATUS", "status.phase"))
            .fields("status.phase", "status.phase")
            .rules(KindRulesBuiltIn.NAMESPACE)
            .build());
    all.add(
        type("", V1, "Node", "nodes", List.of("no"), false, Set.of("status"))
            .columns(
                computed("STATUS", Printers::nodeStatus),
                computed("ROLES", Printers::nodeRoles),
                col("VERSION", "status.nodeInfo.kubeletVersion"))
            .fields("spec.unschedulable", "spec.unschedulable")
            .rules(KindRulesBuiltIn.NODE)
            .build());
    all.add(
        type(
                "",
                V1,
                "Pod",
                "pods",
                List.of("po"),
                true,
                Set.of("status", "binding", "eviction", "log"))
            .categories("all")
            .columns(
                computed("READY", Printers::podReady),
                computed("STATUS", PodStatusColumn::of),
                computed("RESTARTS", Printers::podRestarts),
                wide("IP", "status.podIP"),
                wide("NODE", "spec.nodeName"))
            .fields(
                "spec.nodeName", "spec.nodeName",
                "status.phase", "status.phase",
                "spec.restartPolicy", "spec.restartPolicy",
                "spec.schedulerName", "spec.schedulerName",
                "spec.serviceAccountName", "spec.serviceAccountName",
                "status.podIP", "status.podIP",
                "status.nominatedNodeName", "status.nominatedNodeName")
            .rules(KindRulesBuiltIn.POD)
            .build());
    all.add(
        type("", V1, "Event", "events", List.of("ev"), true, Set.of())
            .ownColumns(eventColumns())
            .fields(CORE_EVENT_FIELDS)
            .build());
    all.add(
        type("", V1, "ConfigMap", "configmaps", List.of("cm"), true, Set.of())
            .columns(computed("DATA", Printers::dataCount))
            .build());
    all.add(
        type("", V1, "Secret", "secrets", List.of(), true, Set.of())
            .columns(col("TYPE", "type"), computed("DATA", Printers::dataCount))
            .fields("type", "type")
            .build());
    all.add(
        type("", V1, "ServiceAccount", "serviceaccounts", List.of("sa"), true, Set.of()).build());
    // Stored with the core Events, as upstream: both APIs show the same objects.
    all.add(
        type("events.k8s.io", V1, "Event", "events", List.of("ev"), true, Set.of())
            .storedIn("")
            .ownColumns(eventColumns())
            .fields(EVENTS_GROUP_FIELDS)
            .build());
    all.add(
        type("coordination.k8s.io", V1, "Lease", "leases", List.of(), true, Set.of())
            .columns(col("HOLDER", "spec.holderIdentity"))
            .build());
    all.add(
        type(
                "apps",
                V1,
                "Deployment",
                "deployments",
                List.of("deploy"),
                true,
                Set.of("status", "scale"))
            .categories("all")
            .columns(
                computed("READY", Printers::deploymentReady),
                col("UP-TO-DATE", "status.updatedReplicas", "integer"),
                col("AVAILABLE", "status.availableReplicas", "integer"))
            .build());
    all.add(
        type(
                "apps",
                V1,
                "ReplicaSet",
                "replicasets",
                List.of("rs"),
                true,
                Set.of("status", "scale"))
            .categories("all")
            .columns(
                col("DESIRED", "spec.replicas", "integer"),
                col("CURRENT", "status.replicas", "integer"),
                col("READY", "status.readyReplicas", "integer"))
            .fields("status.replicas", "status.replicas")
            .build());
    all.add(
        type("batch", V1, "Job", "jobs", List.of(), true, Set.of("status"))
            .categories("all")
            .columns(computed("COMPLETIONS", Printers::jobCompletions))
            .fields("status.successful", "status.successful")
            .rules(KindRulesBuiltIn.JOB)
            .build());
    all.add(resource("DeviceClass", "deviceclasses", false, Set.of()).build());
    all.add(
        resource("ResourceClaim", "resourceclaims", true, Set.of("status"))
            .columns(
                computed("STATE", Printers::claimState),
                computedWide("DEVICES", Printers::claimDevices))
            .build());
    all.add(resource("ResourceClaimTemplate", "resourceclaimtemplates", true, Set.of()).build());
    all.add(
        resource("ResourceSlice", "resourceslices", false, Set.of())
            .columns(
                col("NODE", "spec.nodeName"),
                col("DRIVER", "spec.driver"),
                col("POOL", "spec.pool.name"))
            .fields("spec.nodeName", "spec.nodeName", "spec.driver", "spec.driver")
            .build());
    // Kubernetes 1.36 serves DeviceTaintRule as v1beta2 (stored) and v1alpha3; v1 comes in 1.37.
    all.add(
        type(
                "resource.k8s.io",
                List.of("v1beta2", "v1alpha3"),
                "DeviceTaintRule",
                "devicetaintrules",
                List.of(),
                false,
                Set.of("status"))
            .build());
    return all;
  }

  /**
   * scheduling.k8s.io/v1alpha2 Workload and PodGroup, served with the GenericWorkload gate
   * (upstream also needs {@code --runtime-config=scheduling.k8s.io/v1alpha2=true}; jdra takes the
   * gate for both). PodGroups have a status subresource (the scheduler's PodGroupScheduled
   * condition, the claim controller's resourceClaimStatuses).
   */
  static List<ResourceType> workloads() {
    List<String> v = List.of("v1alpha2");
    return List.of(
        type("scheduling.k8s.io", v, "Workload", "workloads", List.of(), true, Set.of()).build(),
        type("scheduling.k8s.io", v, "PodGroup", "podgroups", List.of(), true, Set.of("status"))
            .build());
  }

  private static Builder resource(
      String kind, String plural, boolean namespaced, Set<String> subresources) {
    return type(
        "resource.k8s.io", RESOURCE_VERSIONS, kind, plural, List.of(), namespaced, subresources);
  }

  private static Builder type(
      String group,
      List<String> versions,
      String kind,
      String plural,
      List<String> shortNames,
      boolean namespaced,
      Set<String> subresources) {
    return new Builder(group, versions, kind, plural, shortNames, namespaced, subresources);
  }

  private static Column col(String name, String path) {
    return new Column(name, "string", 0, path);
  }

  private static Column col(String name, String path, String type) {
    return new Column(name, type, 0, path);
  }

  private static Column wide(String name, String path) {
    return new Column(name, "string", 1, path);
  }

  private static Column computed(String name, Column.Printer printer) {
    return new Column(name, "string", 0, "", printer);
  }

  private static Column computedWide(String name, Column.Printer printer) {
    return new Column(name, "string", 1, "", printer);
  }

  private static final class Builder {
    private final String group;
    private final List<String> versions;
    private final String kind;
    private final String plural;
    private final List<String> shortNames;
    private final boolean namespaced;
    private final Set<String> subresources;
    private List<String> categories = List.of();
    private List<Column> columns = List.of();
    private final Map<String, String> fields = new LinkedHashMap<>();
    private KindRules rules = KindRules.GENERIC;
    private String storageGroup;
    private boolean standardColumns = true;

    Builder(
        String group,
        List<String> versions,
        String kind,
        String plural,
        List<String> shortNames,
        boolean namespaced,
        Set<String> subresources) {
      this.group = group;
      this.versions = versions;
      this.kind = kind;
      this.plural = plural;
      this.shortNames = shortNames;
      this.namespaced = namespaced;
      this.subresources = subresources;
      fields.put("metadata.name", "metadata.name");
      if (namespaced) {
        fields.put("metadata.namespace", "metadata.namespace");
      }
    }

    Builder categories(String... c) {
      categories = List.of(c);
      return this;
    }

    Builder columns(Column... c) {
      columns = List.of(c);
      return this;
    }

    /** Every column, without the standard NAME and AGE. */
    Builder ownColumns(Column... c) {
      columns = List.of(c);
      standardColumns = false;
      return this;
    }

    /** Objects live in another group's storage, in its form. */
    Builder storedIn(String g) {
      storageGroup = g;
      return this;
    }

    Builder rules(KindRules r) {
      rules = r;
      return this;
    }

    Builder fields(String... pairs) {
      for (int i = 0; i < pairs.length; i += 2) {
        fields.put(pairs[i], pairs[i + 1]);
      }
      return this;
    }

    ResourceType build() {
      return new ResourceType(
          group,
          versions.get(0),
          versions,
          kind,
          plural,
          kind.toLowerCase(java.util.Locale.ROOT),
          shortNames,
          namespaced,
          subresources,
          categories,
          columns,
          fields,
          rules,
          storageGroup == null ? group : storageGroup,
          standardColumns);
    }
  }
}
