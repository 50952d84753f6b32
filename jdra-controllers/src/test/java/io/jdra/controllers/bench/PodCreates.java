package io.jdra.controllers.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.client.ApiRequests;
import io.jdra.testing.objects.Make;

/**
 * The load generator's pod creates: upstream's basic-resourceclaimtemplate pod (one container using
 * the claim from template {@code single-gpu}) named {@code <prefix><i>}. The JSON is written once
 * per burst and only the name differs, and the created pod the server answers with is not decoded:
 * the client's DSL encoded and decoded every pod by reflection, a third of the generator's CPU,
 * which the benchmark counted although it is no component's work. Thread-safe.
 */
final class PodCreates {
  private static final String NAME = "@@name@@";

  private final ApiRequests.Resource<Void> pods;
  private final String ns;
  private final String before;
  private final String after;

  PodCreates(KubernetesClient client, String ns, String prefix) {
    this.pods = new ApiRequests(client).resource("v1", "pods", Void.class);
    this.ns = ns;
    String json = client.getKubernetesSerialization().asJson(pod(ns, NAME));
    int at = json.indexOf(NAME);
    this.before = json.substring(0, at) + prefix;
    this.after = json.substring(at + NAME.length());
    if (after.contains(NAME)) {
      throw new IllegalStateException("the pod's name appears twice in its JSON: " + json);
    }
  }

  /** The pod the generator creates. */
  static Pod pod(String ns, String name) {
    return Make.pod(name)
        .namespace(ns)
        .claimFromTemplate("gpu", "single-gpu")
        .container("ctr0", "gpu")
        .obj();
  }

  /** Creates pod {@code <prefix><i>}. */
  void create(int i) {
    pods.create(ns, before + i + after);
  }
}
