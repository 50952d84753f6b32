package io.jdra.kubelet.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The kubelet's status merge and its two-way strategic merge patch (upstream's shapes). */
class PodStatusPatchTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  static ObjectNode obj(String json) {
    return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
  }

  @Test
  void equalStatusesAreNoPatch() {
    ObjectNode s = obj("{'phase':'Running','conditions':[{'type':'Ready','status':'True'}]}");
    assertThat(PodStatusPatch.create("u1", s, s.deepCopy())).isNull();
  }

  @Test
  void changedFieldsAreSetRemovedOnesNullAndTheUidIsAPrecondition() {
    ObjectNode patch =
        PodStatusPatch.create(
            "u1",
            obj("{'phase':'Pending','message':'m','hostIP':'10.0.0.1'}"),
            obj("{'phase':'Running','hostIP':'10.0.0.1','podIP':'10.1.0.2'}"));
    assertThat(patch)
        .isEqualTo(
            obj(
                "{'metadata':{'uid':'u1'},"
                    + "'status':{'phase':'Running','podIP':'10.1.0.2','message':null}}"));
  }

  @Test
  void conditionsArePatchedPerTypeWithTheNewOrder() {
    ObjectNode patch =
        PodStatusPatch.create(
            "u1",
            obj(
                "{'conditions':[{'type':'PodScheduled','status':'True'},"
                    + "{'type':'Ready','status':'False','reason':'ContainersNotReady'},"
                    + "{'type':'Gone','status':'True'}]}"),
            obj(
                "{'conditions':[{'type':'PodScheduled','status':'True'},"
                    + "{'type':'Ready','status':'True'},{'type':'Initialized','status':'True'}]}"));
    assertThat(patch.get("status"))
        .isEqualTo(
            obj(
                "{'$setElementOrder/conditions':[{'type':'PodScheduled'},{'type':'Ready'},"
                    + "{'type':'Initialized'}],"
                    + "'conditions':[{'status':'True','reason':null,'type':'Ready'},"
                    + "{'type':'Initialized','status':'True'},"
                    + "{'$patch':'delete','type':'Gone'}]}"));
  }

  @Test
  void containerStatusesAreReplacedWhole() {
    ObjectNode patch =
        PodStatusPatch.create(
            "u1",
            obj("{'containerStatuses':[{'name':'a','ready':false},{'name':'b','ready':true}]}"),
            obj("{'containerStatuses':[{'name':'a','ready':true},{'name':'b','ready':true}]}"));
    assertThat(patch.get("status"))
        .isEqualTo(
            obj("{'containerStatuses':[{'name':'a','ready':true},{'name':'b','ready':true}]}"));
  }

  @Test
  void aListOnlyReorderedIsNoPatch() {
    assertThat(
            PodStatusPatch.create(
                "u1",
                obj("{'podIPs':[{'ip':'a'},{'ip':'b'}]}"),
                obj("{'podIPs':[{'ip':'b'},{'ip':'a'}]}")))
        .isNull();
  }

  @Test
  void mergeKeepsTheServersOtherConditionsAndFieldsAndTakesTheKubeletsOwn() {
    ObjectNode server =
        obj(
            "{'phase':'Pending','qosClass':'BestEffort',"
                + "'conditions':[{'type':'PodScheduled','status':'True','lastTransitionTime':'t0'},"
                + "{'type':'DisruptionTarget','status':'True'},{'type':'Ready','status':'False'}]}");
    ObjectNode kubelet =
        obj(
            "{'phase':'Running','conditions':[{'type':'Ready','status':'True'},"
                + "{'type':'Custom','status':'True'},"
                + "{'type':'PodScheduled','status':'True','lastTransitionTime':'t0'}]}");
    assertThat(PodStatusPatch.mergePodStatus(server, kubelet))
        .isEqualTo(
            obj(
                "{'phase':'Running','qosClass':'BestEffort',"
                    + "'conditions':[{'type':'DisruptionTarget','status':'True'},"
                    + "{'type':'Ready','status':'True'},"
                    + "{'type':'PodScheduled','status':'True','lastTransitionTime':'t0'}]}"));
  }
}
