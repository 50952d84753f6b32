package io.jdra.apiserver.admission;

import static io.jdra.apiserver.admission.Trees.defaultInt;
import static io.jdra.apiserver.admission.Trees.defaultIntPointer;
import static io.jdra.apiserver.admission.Trees.defaultString;
import static io.jdra.apiserver.admission.Trees.eachObject;
import static io.jdra.apiserver.admission.Trees.ensure;
import static io.jdra.apiserver.admission.Trees.obj;
import static io.jdra.apiserver.admission.Trees.str;
import static io.jdra.apiserver.admission.Trees.unset;
import static io.jdra.apiserver.admission.Trees.unsetString;

import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The core/v1 defaults of a pod spec, as kube-apiserver applies them when it decodes a Pod or an
 * object with a pod template (Deployment, ReplicaSet, Job): spec-level fields, volumes, containers,
 * probes, ports. The Pod-only defaults (requests from limits, service links, host-network ports)
 * apply when {@code pod} is true; templates do not get them, as upstream. Stateless.
 */
final class PodSpecDefaults {
  /** Mode 0644, the default of secret, config map, downward API and projected volumes. */
  private static final int DEFAULT_MODE = 420;

  private static final List<String> CONTAINER_LISTS =
      List.of("initContainers", "containers", "ephemeralContainers");
  private static final List<String> PROBES =
      List.of("livenessProbe", "readinessProbe", "startupProbe");

  /** Defaults of the few in-tree volume sources that have any, by source field. */
  private static final Map<String, Map<String, String>> SOURCE_STRINGS =
      Map.of(
          "iscsi", Map.of("iscsiInterface", "default"),
          "rbd", Map.of("pool", "rbd", "user", "admin", "keyring", "/etc/ceph/keyring"),
          "azureDisk", Map.of("cachingMode", "ReadWrite", "fsType", "ext4", "kind", "Shared"),
          "scaleIO", Map.of("storageMode", "ThinProvisioned", "fsType", "xfs"));

  private PodSpecDefaults() {}

  /** Defaults a pod spec in place; {@code pod} adds the defaults upstream keeps for Pods only. */
  static void apply(ObjectNode spec, boolean pod) {
    if (pod) {
      podOnly(spec);
    }
    defaultString(spec, "dnsPolicy", "ClusterFirst");
    defaultString(spec, "restartPolicy", "Always");
    ensure(spec, "securityContext");
    defaultIntPointer(spec, "terminationGracePeriodSeconds", 30);
    defaultString(spec, "schedulerName", "default-scheduler");
    serviceAccountAlias(spec);
    eachObject(spec, "volumes", PodSpecDefaults::volume);
    for (String list : CONTAINER_LISTS) {
      eachObject(spec, list, PodSpecDefaults::container);
    }
  }

  /** Defaults the spec of a pod template ({@code spec.template.spec}) when there is one. */
  static void template(ObjectNode owner) {
    ObjectNode spec = obj(obj(obj(owner, "spec"), "template"), "spec");
    if (spec != null) {
      apply(spec, false);
    }
  }

  private static void podOnly(ObjectNode spec) {
    eachObject(spec, "containers", PodSpecDefaults::requestsFromLimits);
    eachObject(spec, "initContainers", PodSpecDefaults::requestsFromLimits);
    Trees.defaultBoolPointer(spec, "enableServiceLinks", true);
    JsonNode hostNetwork = spec.get("hostNetwork");
    if (hostNetwork != null && hostNetwork.asBoolean(false)) {
      eachObject(spec, "containers", PodSpecDefaults::hostPorts);
      eachObject(spec, "initContainers", PodSpecDefaults::hostPorts);
    }
  }

  /**
   * The deprecated {@code serviceAccount} alias: the v1 conversion reads it when the name is unset
   * and always writes the name back into it.
   */
  static void serviceAccountAlias(ObjectNode spec) {
    if (unsetString(spec, "serviceAccountName") && !unsetString(spec, "serviceAccount")) {
      spec.set("serviceAccountName", spec.get("serviceAccount"));
    }
    if (!unsetString(spec, "serviceAccountName")) {
      spec.set("serviceAccount", spec.get("serviceAccountName"));
    } else {
      spec.remove("serviceAccount");
    }
  }

  private static void requestsFromLimits(ObjectNode container) {
    ObjectNode resources = obj(container, "resources");
    ObjectNode limits = obj(resources, "limits");
    if (limits == null) {
      return;
    }
    ObjectNode requests = ensure(resources, "requests");
    if (requests == null) {
      return;
    }
    for (Map.Entry<String, JsonNode> e : limits.properties()) {
      if (!requests.has(e.getKey())) {
        requests.set(e.getKey(), e.getValue().deepCopy());
      }
    }
  }

  private static void hostPorts(ObjectNode container) {
    eachObject(
        container,
        "ports",
        p -> {
          if (Trees.unsetInt(p, "hostPort") && p.get("containerPort") != null) {
            p.set("hostPort", p.get("containerPort"));
          }
        });
  }

  private static void volume(ObjectNode v) {
    boolean hasSource = false;
    for (Map.Entry<String, JsonNode> e : v.properties()) {
      if (!e.getKey().equals("name") && !e.getValue().isNull()) {
        hasSource = true;
        break;
      }
    }
    if (!hasSource) {
      v.putObject("emptyDir");
      return;
    }
    ObjectNode image = obj(v, "image");
    if (image != null && unsetString(image, "pullPolicy")) {
      image.put("pullPolicy", ImagePullPolicy.forImage(str(image, "reference")));
    }
    ObjectNode hostPath = obj(v, "hostPath");
    if (hostPath != null && unset(hostPath, "type")) {
      hostPath.put("type", "");
    }
    for (String source : List.of("secret", "configMap")) {
      ObjectNode s = obj(v, source);
      if (s != null) {
        defaultIntPointer(s, "defaultMode", DEFAULT_MODE);
      }
    }
    ObjectNode downward = obj(v, "downwardAPI");
    if (downward != null) {
      defaultIntPointer(downward, "defaultMode", DEFAULT_MODE);
      eachObject(downward, "items", PodSpecDefaults::fieldRef);
    }
    ObjectNode projected = obj(v, "projected");
    if (projected != null) {
      defaultIntPointer(projected, "defaultMode", DEFAULT_MODE);
      eachObject(projected, "sources", PodSpecDefaults::projection);
    }
    for (Map.Entry<String, Map<String, String>> s : SOURCE_STRINGS.entrySet()) {
      ObjectNode source = obj(v, s.getKey());
      if (source != null) {
        s.getValue().forEach((field, value) -> defaultString(source, field, value));
      }
    }
    ObjectNode azure = obj(v, "azureDisk");
    if (azure != null) {
      Trees.defaultBoolPointer(azure, "readOnly", false);
    }
    ObjectNode claimSpec = obj(obj(obj(v, "ephemeral"), "volumeClaimTemplate"), "spec");
    if (claimSpec != null) {
      defaultString(claimSpec, "volumeMode", "Filesystem");
    }
  }

  private static void projection(ObjectNode source) {
    eachObject(obj(source, "downwardAPI"), "items", PodSpecDefaults::fieldRef);
    ObjectNode token = obj(source, "serviceAccountToken");
    if (token != null) {
      defaultIntPointer(token, "expirationSeconds", 3600);
    }
  }

  /** A downward API item or env source: its field reference defaults to apiVersion v1. */
  private static void fieldRef(ObjectNode holder) {
    ObjectNode ref = obj(holder, "fieldRef");
    if (ref != null) {
      defaultString(ref, "apiVersion", "v1");
    }
  }

  private static void container(ObjectNode c) {
    // Not a default but Go's encoding: a struct field is always written, empty or not.
    ensure(c, "resources");
    if (unsetString(c, "imagePullPolicy")) {
      c.put("imagePullPolicy", ImagePullPolicy.forImage(str(c, "image")));
    }
    defaultString(c, "terminationMessagePath", "/dev/termination-log");
    defaultString(c, "terminationMessagePolicy", "File");
    eachObject(c, "ports", p -> defaultString(p, "protocol", "TCP"));
    eachObject(c, "env", e -> fieldRef(obj(e, "valueFrom")));
    for (String probe : PROBES) {
      ObjectNode p = obj(c, probe);
      if (p != null) {
        probe(p);
      }
    }
    ObjectNode lifecycle = obj(c, "lifecycle");
    for (String hook : List.of("postStart", "preStop")) {
      ObjectNode h = obj(lifecycle, hook);
      if (h != null) {
        httpGet(obj(h, "httpGet"));
      }
    }
  }

  private static void probe(ObjectNode p) {
    defaultInt(p, "timeoutSeconds", 1);
    defaultInt(p, "periodSeconds", 10);
    defaultInt(p, "successThreshold", 1);
    defaultInt(p, "failureThreshold", 3);
    httpGet(obj(p, "httpGet"));
    ObjectNode grpc = obj(p, "grpc");
    if (grpc != null && unset(grpc, "service")) {
      grpc.put("service", "");
    }
  }

  private static void httpGet(ObjectNode get) {
    if (get != null) {
      defaultString(get, "path", "/");
      defaultString(get, "scheme", "HTTP");
    }
  }
}
