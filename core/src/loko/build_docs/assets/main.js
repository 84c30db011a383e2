// loko documentation site: client-side search over names, descriptions and technology,
// the dark/light switch, and the phone menu. Works from file:// (the index is a script,
// not a fetch), needs no network.
(function () {
  'use strict'
  var root = window.LOKO_ROOT || ''
  var entries = window.LOKO_SEARCH || []
  var input = document.getElementById('search')
  var list = document.getElementById('search-results')

  function matches(entry, terms) {
    var text = (entry.title + ' ' + entry.description + ' ' + entry.technology + ' ' + entry.path).toLowerCase()
    return terms.every(function (t) { return text.indexOf(t) !== -1 })
  }

  function show(query) {
    var terms = query.toLowerCase().split(/\s+/).filter(Boolean)
    list.innerHTML = ''
    if (!terms.length) { list.hidden = true; return }
    var found = entries.filter(function (e) { return matches(e, terms) })
    found.sort(function (a, b) {
      var at = a.title.toLowerCase().indexOf(terms[0]) === -1 ? 1 : 0
      var bt = b.title.toLowerCase().indexOf(terms[0]) === -1 ? 1 : 0
      return at - bt
    })
    found.slice(0, 25).forEach(function (e) {
      var li = document.createElement('li')
      var a = document.createElement('a')
      a.href = root + e.url
      a.textContent = e.title
      var small = document.createElement('small')
      small.textContent = e.type + ' · ' + e.path + (e.technology ? ' · ' + e.technology : '')
      a.appendChild(small)
      li.appendChild(a)
      list.appendChild(li)
    })
    if (!found.length) {
      var none = document.createElement('li')
      none.className = 'empty'
      none.textContent = 'No matches'
      list.appendChild(none)
    }
    list.hidden = false
  }

  if (input && list) {
    input.addEventListener('input', function () { show(input.value) })
    input.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') {
        var first = list.querySelector('a')
        if (first) window.location.href = first.href
      } else if (event.key === 'Escape') {
        input.value = ''
        show('')
      }
    })
  }

  var toggle = document.querySelector('.theme-toggle')
  if (toggle) {
    toggle.addEventListener('click', function () {
      var el = document.documentElement
      var dark = el.dataset.theme ? el.dataset.theme === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches
      el.dataset.theme = dark ? 'light' : 'dark'
      try { localStorage.setItem('loko-theme', el.dataset.theme) } catch (e) { /* file:// without storage */ }
    })
  }

  var menu = document.querySelector('.menu')
  if (menu) {
    menu.addEventListener('click', function () {
      var open = document.body.classList.toggle('nav-open')
      menu.setAttribute('aria-expanded', String(open))
    })
  }
})()
