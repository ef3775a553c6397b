try { await fetch('http://127.0.0.1:9/x', {method:'POST'}) } catch (e) { console.log(e.cause, Object.keys(e.cause)) }
