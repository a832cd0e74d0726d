const sh = require('mvdan-sh'); const syntax = sh.syntax;
const p = syntax.NewParser();
const src = process.argv[2];
let t=performance.now(); const f = p.Parse(src, ''); console.error('first ms', performance.now()-t);
syntax.DebugPrint(f);
t=performance.now(); for (let i=0;i<1000;i++) p.Parse(src,''); console.error('per parse ms', (performance.now()-t)/1000);
