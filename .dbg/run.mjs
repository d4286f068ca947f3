process.env.FORCE_COLOR = "3";
const m = await import("/work/wt/perf/.dbg/dbg.mjs");
const first = { logged: [], status: "gar", chat: Array.from({length:6},(_, i)=>({key:i,text:`row ${i}`,transform: i===1?"mark":undefined})), height:5, scroll:0, side:["a","b"], sideWidth:14, sideHidden:false, dialog:null, input:"", hint:"Enter send" };
const script = ["h","hi","hi!"].map((input)=>({...first,input}));
const b = m.calls();
await m.frames([first, ...script]);
console.log("calls", m.calls()-b);
