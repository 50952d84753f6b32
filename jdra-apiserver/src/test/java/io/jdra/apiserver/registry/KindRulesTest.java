package io.jdra.apiserver.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Each built-in kind's rules, read from its ResourceType as the REST layer reads them. */
class KindRulesTest {
  static final ResourceRegistry REGISTRY = ResourceRegistry.builtIn();

  static ResourceType type(String group, String plural) {
    return REGISTRY
        .find(
            group,
            REGISTRY.all().stream()
                .filter(t -> t.group().equals(group) && t.plural().equals(plural))
                .findFirst()
                .orElseThrow()
                .storageVersion(),
            plural)
        .orElseThrow();
  }

  static ObjectNode obj(String json) {
    return Json.parseObject(json.replace('\'', '"').getBytes());
  }

  @Test
  void namespacesAreFinalizedThroughTheirSpec() {
    ResourceType ns = type("", "namespaces");
    ObjectNode o = obj("{'metadata':{'name':'x'},'status':{'phase':'Terminating'}}");
    ns.rules().prepareForCreate(ns, o);
    assertThat(o.at("/spec/finalizers/0").asString()).isEqualTo("kubernetes");
    assertThat(o.at("/status/phase").asString()).isEqualTo("Active");

    ObjectNode edited = obj("{'metadata':{'name':'x'},'spec':{'finalizers':[]}}");
    ns.rules().prepareForUpdate(edited, o);
    assertThat(edited.at("/spec/finalizers/0").asString())
        .as("only finalize changes them")
        .isEqualTo("kubernetes");

    assertThat(ns.rules().holdsDeletion(o)).isTrue();
    ns.rules().startDeletion(o);
    assertThat(o.at("/status/phase").asString()).isEqualTo("Terminating");
    assertThat(ns.rules().holdsDeletion(obj("{'spec':{'finalizers':[]}}"))).isFalse();
  }

  @Test
  void podsOnANodeAreDeletedGracefully() {
    ResourceType pods = type("", "pods");
    ObjectNode running =
        obj(
            "{'spec':{'nodeName':'n','terminationGracePeriodSeconds':5},'status':{'phase':'Running'}}");
    assertThat(pods.rules().gracePeriodSeconds(running, null)).isEqualTo(5L);
    assertThat(pods.rules().gracePeriodSeconds(running, 0L)).isZero();
    assertThat(pods.rules().holdsDeletion(running)).isTrue();
    ObjectNode pending = obj("{'spec':{},'status':{'phase':'Pending'}}");
    assertThat(pods.rules().gracePeriodSeconds(pending, null)).as("not on a node").isNull();
    ObjectNode done = obj("{'spec':{'nodeName':'n'},'status':{'phase':'Succeeded'}}");
    assertThat(pods.rules().holdsDeletion(done)).isFalse();
    ObjectNode forced =
        obj(
            "{'metadata':{'deletionTimestamp':'t','deletionGracePeriodSeconds':0},'spec':{'nodeName':'n'},'status':{'phase':'Running'}}");
    assertThat(pods.rules().holdsDeletion(forced)).isFalse();
  }

  @Test
  void statusIsTheServersOnCreateExceptForNodes() {
    ResourceType claims = type("resource.k8s.io", "resourceclaims");
    ObjectNode c = obj("{'spec':{},'status':{'allocation':{}}}");
    claims.rules().prepareForCreate(claims, c);
    assertThat(c.has("status")).isFalse();
    ResourceType nodes = type("", "nodes");
    ObjectNode n = obj("{'status':{'capacity':{'cpu':'8'}}}");
    nodes.rules().prepareForCreate(nodes, n);
    assertThat(n.at("/status/capacity/cpu").asString()).isEqualTo("8");
  }

  @Test
  void jobsOrphanTheirPodsByDefault() {
    assertThat(type("batch", "jobs").rules().defaultPropagationPolicy()).isEqualTo("Orphan");
    assertThat(type("apps", "replicasets").rules().defaultPropagationPolicy()).isNull();
  }
}
