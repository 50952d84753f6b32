package io.jdra.apiserver.registry;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.json.JsonMapper;

class PodStatusColumnTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "pending without status | {} | Unknown",
        "phase | {'status':{'phase':'Pending'}} | Pending",
        "pod reason wins over phase | {'status':{'phase':'Failed','reason':'Evicted'}} | Evicted",
        "scheduling gated | {'status':{'phase':'Pending','conditions':[{'type':'PodScheduled','status':'False','reason':'SchedulingGated'}]}} | SchedulingGated",
        "running | {'status':{'phase':'Running','containerStatuses':[{'ready':true,'state':{'running':{}}}]}} | Running",
        "completed container | {'status':{'phase':'Succeeded','containerStatuses':[{'state':{'terminated':{'exitCode':0,'reason':'Completed'}}}]}} | Completed",
        "failed container | {'status':{'phase':'Failed','containerStatuses':[{'state':{'terminated':{'exitCode':3,'reason':'Error'}}}]}} | Error",
        "terminated without reason | {'status':{'phase':'Failed','containerStatuses':[{'state':{'terminated':{'exitCode':137}}}]}} | ExitCode:137",
        "signal | {'status':{'phase':'Failed','containerStatuses':[{'state':{'terminated':{'exitCode':0,'signal':9}}}]}} | Signal:9",
        "crash loop | {'status':{'phase':'Running','containerStatuses':[{'state':{'waiting':{'reason':'CrashLoopBackOff'}}}]}} | CrashLoopBackOff",
        "completed beside running, ready | {'status':{'phase':'Running','conditions':[{'type':'Ready','status':'True'}],'containerStatuses':[{'state':{'terminated':{'exitCode':0,'reason':'Completed'}}},{'ready':true,'state':{'running':{}}}]}} | Running",
        "completed beside running, not ready | {'status':{'phase':'Running','containerStatuses':[{'ready':true,'state':{'running':{}}},{'state':{'terminated':{'exitCode':0,'reason':'Completed'}}}]}} | NotReady",
        "first init container running | {'spec':{'initContainers':[{'name':'a'},{'name':'b'}]},'status':{'phase':'Pending','initContainerStatuses':[{'name':'a','state':{'running':{}}},{'name':'b','state':{'waiting':{'reason':'PodInitializing'}}}]}} | Init:0/2",
        "second init container | {'spec':{'initContainers':[{'name':'a'},{'name':'b'}]},'status':{'phase':'Pending','initContainerStatuses':[{'name':'a','state':{'terminated':{'exitCode':0,'reason':'Completed'}}},{'name':'b','state':{'running':{}}}]}} | Init:1/2",
        "init container failed | {'spec':{'initContainers':[{'name':'a'}]},'status':{'phase':'Pending','initContainerStatuses':[{'name':'a','state':{'terminated':{'exitCode':1,'reason':'Error'}}}]}} | Init:Error",
        "init container crash loop | {'spec':{'initContainers':[{'name':'a'}]},'status':{'phase':'Pending','initContainerStatuses':[{'name':'a','state':{'waiting':{'reason':'CrashLoopBackOff'}}}]}} | Init:CrashLoopBackOff",
        "started sidecar does not hold the pod | {'spec':{'initContainers':[{'name':'s','restartPolicy':'Always'}]},'status':{'phase':'Running','conditions':[{'type':'Initialized','status':'True'}],'initContainerStatuses':[{'name':'s','started':true,'state':{'running':{}}}],'containerStatuses':[{'ready':true,'state':{'running':{}}}]}} | Running",
        "deleted running pod | {'metadata':{'deletionTimestamp':'2026-11-26T00:00:00Z'},'status':{'phase':'Running','containerStatuses':[{'ready':true,'state':{'running':{}}}]}} | Terminating",
        "deleted pod that completed | {'metadata':{'deletionTimestamp':'2026-11-26T00:00:00Z'},'status':{'phase':'Succeeded','containerStatuses':[{'state':{'terminated':{'exitCode':0,'reason':'Completed'}}}]}} | Completed",
        "deleted pod on a lost node | {'metadata':{'deletionTimestamp':'2026-11-26T00:00:00Z'},'status':{'phase':'Running','reason':'NodeLost'}} | Unknown",
      })
  void statusColumn(String name, String pod, String expected) throws Exception {
    assertThat(PodStatusColumn.of(JSON.readTree(pod.replace('\'', '"')))).isEqualTo(expected);
  }
}
